package io.rpcrdma.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.rpcrdma.xdr.Hex;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;

/**
 * The fault an exception travels as: its exact XDR, its bounds on both sides, and shortening
 * it to fit a small reply.
 */
class RemoteFaultTest {

	@RpcFault(code = 77)
	static class Coded extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Coded(String message) {
			super(message);
		}

	}

	@Test
	void encodesCodeTypeAndMessageAsXdr() {
		RemoteFault fault = new RemoteFault(77, "a.B", "oops");
		ByteBuffer buffer = ByteBuffer.allocate(64);
		fault.encode(new XdrEncoder(buffer));
		byte[] bytes = new byte[buffer.flip().remaining()];
		buffer.duplicate().get(bytes);
		assertThat(bytes).isEqualTo(Hex.hex("""
				0000004d            // code 77
				00000003 612e4200   // type "a.B", padded
				00000004 6f6f7073   // message "oops"
				"""));
		assertThat(fault.encodedSize()).isEqualTo(buffer.limit());
		assertThat(RemoteFault.decode(new XdrDecoder(buffer))).isEqualTo(fault);
	}

	@Test
	void codeComesFromTheAnnotationOrTheClassName() {
		assertThat(RemoteFault.of(new Coded("x")).code()).isEqualTo(77);
		assertThat(RemoteFault.of(new IllegalStateException("x")).code())
			.isEqualTo(ProgramNumbers.fnv1a32("java.lang.IllegalStateException".getBytes(StandardCharsets.UTF_8)))
			.isEqualTo(RemoteFault.codeOf(IllegalStateException.class));
		assertThat(RemoteFault.of(new IllegalStateException()).message()).isEmpty();
	}

	@Test
	void longMessagesAndUnpairedSurrogatesAreMadeSendable() {
		RemoteFault fault = RemoteFault.of(new IllegalStateException("é".repeat(5000) + "\uD800"));
		assertThat(fault.message().getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(RemoteFault.MAX_MESSAGE_BYTES);
		assertThat(fault.message()).doesNotContain("\uFFFD").matches("é+");
		ByteBuffer buffer = ByteBuffer.allocate(fault.encodedSize());
		fault.encode(new XdrEncoder(buffer));
		assertThat(buffer.remaining()).isZero();

		RemoteFault surrogate = RemoteFault.of(new IllegalStateException("bad \uD800 pair"));
		ByteBuffer small = ByteBuffer.allocate(surrogate.encodedSize());
		surrogate.encode(new XdrEncoder(small));
		assertThat(RemoteFault.decode(new XdrDecoder(small.flip())).message()).isEqualTo("bad ? pair");
	}

	@Test
	void fittingShortensTheMessageFirst() {
		RemoteFault fault = new RemoteFault(1, "java.lang.IllegalStateException", "x".repeat(3000));
		RemoteFault fitted = fault.fitting(200);
		assertThat(fitted.encodedSize()).isLessThanOrEqualTo(200);
		assertThat(fitted.type()).isEqualTo(fault.type());
		assertThat(fitted.message()).isNotEmpty().hasSizeLessThan(200);
		assertThat(fault.fitting(10_000)).isSameAs(fault);
		assertThat(fault.fitting(20).encodedSize()).isLessThanOrEqualTo(20);
	}

	@Test
	void decodingRefusesOversizeStringsBeforeAllocating() {
		ByteBuffer hostile = Hex.buffer("00000001 7fffffff");
		assertThatExceptionOfType(XdrException.class).isThrownBy(() -> RemoteFault.decode(new XdrDecoder(hostile)));
		ByteBuffer longMessage = ByteBuffer.allocate(16);
		longMessage.putInt(1).putInt(0).putInt(RemoteFault.MAX_MESSAGE_BYTES + 1).flip();
		assertThatExceptionOfType(XdrException.class).isThrownBy(() -> RemoteFault.decode(new XdrDecoder(longMessage)));
	}

}
