package io.rpcrdma.service.codec;

import java.lang.reflect.Type;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/** Encodes {@link Money} as a hyper of cents; listed in META-INF/services for discovery. */
public final class MoneyCodecProvider implements XdrCodecProvider {

	static final XdrCodec<Money> CODEC = new XdrCodec<>() {
		@Override
		public void encode(Money value, XdrEncoder out) {
			out.writeHyper(value.cents);
		}

		@Override
		public Money decode(XdrDecoder in) {
			return new Money(in.readHyper());
		}

		@Override
		public int encodedSize(Money value) {
			return 8;
		}

		@Override
		public int minEncodedSize() {
			return 8;
		}

		@Override
		public XdrShape shape() {
			return new XdrShape.Scalar("hyper");
		}
	};

	@Override
	public XdrCodec<?> codecFor(Type type, CodecRegistry registry) {
		return (type == Money.class) ? CODEC : null;
	}

}
