package io.rpcrdma.benchmarks.attack;

import java.nio.ByteBuffer;
import java.util.List;

import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.protocol.ChunkLists;
import io.rpcrdma.protocol.HeaderDecodeResult;
import io.rpcrdma.protocol.RdmaMsg;
import io.rpcrdma.protocol.ReadSegment;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.TransportHeaderDecoder;
import io.rpcrdma.protocol.TransportHeaderEncoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * RPC-over-RDMA Version 1 messages (RFC 8166 §4) carrying calls of {@link AttackedService},
 * as a hand-written requester sends them: what the attackers put on the wire.
 */
final class CallMessages {

	/** The credits every attacker's call asks for (RFC 8166 §3.3.1). */
	static final int CREDITS = 8;

	private CallMessages() {
	}

	/**
	 * An inline echo call.
	 * @param xid the call's XID
	 * @param credential its credential (AUTH_NONE, AUTH_SYS...)
	 * @param data the argument
	 * @return the message
	 */
	static ByteBuffer echo(int xid, OpaqueAuth credential, byte[] data) {
		RpcCall call = call(xid, AttackedService.ECHO, credential);
		ByteBuffer rpc = ByteBuffer.allocate(RpcMessageCodec.encodedSize(call) + 4 + data.length + 3);
		XdrEncoder encoder = new XdrEncoder(rpc);
		RpcMessageCodec.encodeCall(call, encoder);
		encoder.writeOpaque(data);
		return message(new RdmaMsg(xid, CREDITS, ChunkLists.EMPTY), rpc.flip());
	}

	/**
	 * A put call whose argument's data is in a Read chunk of the attacker's (RFC 8166 §3.4.5):
	 * the server pulls it with an RDMA Read of {@code stag} at {@code address}.
	 * @param xid the call's XID
	 * @param stag the STag the attacker advertises
	 * @param address the address it advertises
	 * @param length the argument's length
	 * @return the message
	 */
	static ByteBuffer putByReadChunk(int xid, int stag, long address, int length) {
		RpcCall call = call(xid, AttackedService.PUT, AuthNone.INSTANCE);
		int header = RpcMessageCodec.encodedSize(call);
		ByteBuffer rpc = ByteBuffer.allocate(header + 4);
		XdrEncoder encoder = new XdrEncoder(rpc);
		RpcMessageCodec.encodeCall(call, encoder);
		// The opaque's length word stays inline; its data is the chunk, at the position after it.
		encoder.writeInt(length);
		ChunkLists chunks = new ChunkLists(List.of(new ReadSegment(header + 4, stag, length, address)), List.of(), null);
		return message(new RdmaMsg(xid, CREDITS, chunks), rpc.flip());
	}

	/**
	 * A get call that offers no Write chunk for its bulk result: a server sending reply data
	 * in Read chunks answers it with one, and waits for RDMA_DONE (RFC 5666 §3.4, §11).
	 * @param xid the call's XID
	 * @param length how many bytes it asks for
	 * @return the message
	 */
	static ByteBuffer getWithoutWriteChunk(int xid, int length) {
		RpcCall call = call(xid, AttackedService.GET, AuthNone.INSTANCE);
		ByteBuffer rpc = ByteBuffer.allocate(RpcMessageCodec.encodedSize(call) + 4);
		XdrEncoder encoder = new XdrEncoder(rpc);
		RpcMessageCodec.encodeCall(call, encoder);
		encoder.writeInt(length);
		return message(new RdmaMsg(xid, CREDITS, ChunkLists.EMPTY), rpc.flip());
	}

	/**
	 * @param received a message the server sent
	 * @return its transport header, or {@code null} if it does not decode
	 */
	static TransportHeader header(ByteBuffer received) {
		HeaderDecodeResult result = new TransportHeaderDecoder().decode(received.duplicate());
		return (result instanceof HeaderDecodeResult.Valid valid) ? valid.header() : null;
	}

	private static RpcCall call(int xid, int procedure, OpaqueAuth credential) {
		return RpcCall.of(xid, AttackedService.PROGRAM, AttackedService.VERSION, procedure, credential);
	}

	private static ByteBuffer message(RdmaMsg header, ByteBuffer rpc) {
		ByteBuffer out = ByteBuffer.allocate(TransportHeaderEncoder.encodedLength(header) + rpc.remaining());
		TransportHeaderEncoder.encode(header, new XdrEncoder(out));
		return out.put(rpc).flip();
	}

}
