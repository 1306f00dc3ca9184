package io.rpcrdma.client;

import java.nio.ByteBuffer;
import java.util.List;

import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrEncoder;

/** What the transport does to a {@link ClientCall}, for tests of the layers above it. */
final class ClientCalls {

	private ClientCalls() {
	}

	/** Encodes a reply header followed by result words. */
	static ByteBuffer encoded(RpcReply reply, int... results) {
		ByteBuffer buffer = ByteBuffer.allocate(RpcMessageCodec.encodedSize(reply) + 4 * results.length);
		XdrEncoder encoder = new XdrEncoder(buffer);
		RpcMessageCodec.encodeReply(reply, encoder);
		for (int result : results) {
			encoder.writeInt(result);
		}
		return buffer.flip();
	}

	/** Delivers a reply the way the transport does: copied into the room the call offers. */
	static ByteBuffer deliver(ClientCall call, ByteBuffer message, List<ByteBuffer> writeChunks) {
		ByteBuffer room = call.replyBuffer(message.remaining());
		if (room == null) {
			room = ByteBuffer.allocate(message.remaining());
		}
		room.put(message.duplicate()).flip();
		call.replied(1, room, writeChunks, null);
		return room;
	}

	static ByteBuffer deliver(ClientCall call, ByteBuffer message) {
		return deliver(call, message, List.of());
	}

}
