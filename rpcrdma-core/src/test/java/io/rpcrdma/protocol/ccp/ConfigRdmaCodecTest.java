package io.rpcrdma.protocol.ccp;


import static io.rpcrdma.xdr.Hex.hex;
import static io.rpcrdma.xdr.Hex.words;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.ByteBuffer;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrTruncatedException;
import org.junit.jupiter.api.Test;

/** Byte-exact vectors for the Connection Configuration Protocol of RFC 5666 §6.2. */
class ConfigRdmaCodecTest {

	@Test
	void programNumbersAreThoseOfRfc5666() {
		assertThat(ConfigRdmaProgram.PROGRAM).isEqualTo(100417);
		assertThat(ConfigRdmaProgram.VERSION).isEqualTo(1);
		assertThat(ConfigRdmaProgram.CONF_RDMA).isEqualTo(1);
	}

	@Test
	void configRdmaRequestRoundTrip() {
		ConfigRdmaRequest request = new ConfigRdmaRequest(1024, 4096, 8);
		byte[] wire = hex("""
				00000400 // maxcall_sendsize = 1024
				00001000 // maxreply_sendsize = 4096
				00000008 // maxrdmaread = 8
				""");
		ByteBuffer buffer = ByteBuffer.allocate(ConfigRdmaCodec.ENCODED_LENGTH);
		ConfigRdmaCodec.encode(request, new XdrEncoder(buffer));
		assertThat(words(buffer.array())).isEqualTo(words(wire));
		assertThat(ConfigRdmaCodec.decodeRequest(new XdrDecoder(ByteBuffer.wrap(wire)))).isEqualTo(request);
	}

	@Test
	void configRdmaReplyRoundTrip() {
		// Field order differs from the request: the second word is the server's alignment.
		ConfigRdmaReply reply = new ConfigRdmaReply(2048, 4096, 0xffffffffL);
		byte[] wire = hex("""
				00000800 // maxcall_sendsize = 2048
				00001000 // align = 4096
				ffffffff // maxrdmaread = 2^32 - 1 (uint32)
				""");
		ByteBuffer buffer = ByteBuffer.allocate(ConfigRdmaCodec.ENCODED_LENGTH);
		ConfigRdmaCodec.encode(reply, new XdrEncoder(buffer));
		assertThat(words(buffer.array())).isEqualTo(words(wire));
		assertThat(ConfigRdmaCodec.decodeReply(new XdrDecoder(ByteBuffer.wrap(wire)))).isEqualTo(reply);
	}

	@Test
	void fieldsOutsideUint32AreRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ConfigRdmaRequest(-1, 0, 0))
			.withMessageContaining("maxcall_sendsize");
		assertThatIllegalArgumentException().isThrownBy(() -> new ConfigRdmaReply(0, 1L << 32, 0))
			.withMessageContaining("align");
	}

	@Test
	void truncatedArgumentIsRejected() {
		assertThatExceptionOfType(XdrTruncatedException.class)
			.isThrownBy(() -> ConfigRdmaCodec.decodeRequest(new XdrDecoder(ByteBuffer.wrap(hex("00000400 00001000")))));
	}

}
