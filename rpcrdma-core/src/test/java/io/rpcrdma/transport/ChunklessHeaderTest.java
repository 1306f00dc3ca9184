package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.Rdma2Msg;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.TransportHeaderEncoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The chunk-less RDMA_MSG header read and written in place (RFC 8166 §4.1.2, draft §4.2).
 */
class ChunklessHeaderTest {

	private static final VersionRange BOTH = new VersionRange(1, 2);

	@Test
	void writesTheBytesTheEncoderWrites() {
		assertThat(written(0x1234, 1, 32)).isEqualTo(encoded(new RdmaMsg(0x1234, 32, ChunkLists.EMPTY)));
		assertThat(written(0x1234, 2, 7)).isEqualTo(encoded(new Rdma2Msg(0x1234, 7, ChunkLists.EMPTY)));
	}

	@Test
	void recognisesAChunklessMessageFollowedByItsRpcMessage() {
		ByteBuffer message = message(0x55, 2);
		assertThat(ChunklessHeader.matches(message, message.capacity(), BOTH)).isTrue();
	}

	@Test
	void anythingElseGoesToTheDecoder() {
		ByteBuffer otherXid = message(0x55, 2).putInt(ChunklessHeader.LENGTH, 0x56);
		assertThat(ChunklessHeader.matches(otherXid, otherXid.capacity(), BOTH)).isFalse();
		ByteBuffer withReadList = message(0x55, 2).putInt(16, 1);
		assertThat(ChunklessHeader.matches(withReadList, withReadList.capacity(), BOTH)).isFalse();
		ByteBuffer nomsg = message(0x55, 1).putInt(12, 1);
		assertThat(ChunklessHeader.matches(nomsg, nomsg.capacity(), BOTH)).isFalse();
		ByteBuffer version2 = message(0x55, 2);
		assertThat(ChunklessHeader.matches(version2, version2.capacity(), new VersionRange(1, 1))).isFalse();
		ByteBuffer tooShort = message(0x55, 1);
		assertThat(ChunklessHeader.matches(tooShort, ChunklessHeader.LENGTH + 4, BOTH)).isFalse();
	}

	private static ByteBuffer message(int xid, int version) {
		ByteBuffer message = ByteBuffer.allocate(ChunklessHeader.LENGTH + 24);
		ChunklessHeader.write(message, xid, version, 1);
		return message.putInt(ChunklessHeader.LENGTH, xid);
	}

	private static ByteBuffer written(int xid, int version, int credits) {
		ByteBuffer out = ByteBuffer.allocate(ChunklessHeader.LENGTH);
		ChunklessHeader.write(out, xid, version, credits);
		return out;
	}

	private static ByteBuffer encoded(TransportHeader header) {
		ByteBuffer out = ByteBuffer.allocate(TransportHeaderEncoder.encodedLength(header));
		TransportHeaderEncoder.encode(header, new XdrEncoder(out));
		return out.clear();
	}

}
