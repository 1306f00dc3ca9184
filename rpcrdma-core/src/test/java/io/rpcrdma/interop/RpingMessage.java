package io.rpcrdma.interop;

import java.nio.ByteBuffer;

import io.rpcrdma.verbs.MemoryRegion;

/**
 * The one message rping's peers Send each other, {@code struct rping_rdma_info}: a buffer's
 * address, its STag (rkey) and its length, in network byte order (16 bytes). The client
 * advertises its source buffer (the server RDMA Reads it), then its sink buffer (the server
 * RDMA Writes the data back there); the server's Sends in between only say "go ahead" and
 * carry whatever its send buffer holds.
 *
 * @param address the buffer's address
 * @param stag its STag
 * @param length its length
 */
record RpingMessage(long address, int stag, int length) {

	/** The size of the message on the wire. */
	static final int SIZE = 16;

	static RpingMessage describing(MemoryRegion region) {
		return new RpingMessage(region.address(), region.stag(), region.length());
	}

	void encodeInto(ByteBuffer buffer) {
		buffer.putLong(0, this.address).putInt(8, this.stag).putInt(12, this.length);
	}

	static RpingMessage decode(ByteBuffer buffer) {
		return new RpingMessage(buffer.getLong(0), buffer.getInt(8), buffer.getInt(12));
	}

	RpingMessage withStag(int value) {
		return new RpingMessage(this.address, value, this.length);
	}

}
