package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32;

import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * A tiny RPC program for transport tests: procedure 1 echoes its opaque argument, 2 returns
 * the argument's length and CRC-32, 3 returns as many pattern bytes as its argument's first
 * word says. Results that are opaques are marked DDP-eligible.
 */
final class RpcWorkload {

	static final int PROGRAM = 0x20000099;

	static final int ECHO = 1;

	static final int DIGEST = 2;

	static final int GENERATE = 3;

	private RpcWorkload() {
	}

	static int headerLength(int xid, int procedure) {
		return RpcMessageCodec.encodedSize(RpcCall.of(xid, PROGRAM, 1, procedure));
	}

	/** A call whose argument is an opaque. */
	static ByteBuffer call(int xid, int procedure, byte[] argument) {
		ByteBuffer buffer = ByteBuffer.allocate(headerLength(xid, procedure) + 4 + argument.length + 3);
		XdrEncoder encoder = new XdrEncoder(buffer);
		RpcMessageCodec.encodeCall(RpcCall.of(xid, PROGRAM, 1, procedure), encoder);
		encoder.writeOpaque(argument);
		return buffer.flip();
	}

	/** The argument of {@link #call} as a DDP-eligible item. */
	static DdpRange argumentItem(int xid, int procedure, int length) {
		return new DdpRange(headerLength(xid, procedure) + 4, length);
	}

	static OutboundCall echo(int xid, byte[] data, boolean argumentInReadChunk, int resultWriteChunk, int maxReply) {
		return new OutboundCall(call(xid, ECHO, data),
				argumentInReadChunk ? List.of(argumentItem(xid, ECHO, data.length)) : List.of(),
				(resultWriteChunk > 0) ? List.of(resultWriteChunk) : List.of(), maxReply);
	}

	static byte[] pattern(int length, int seed) {
		byte[] bytes = new byte[length];
		for (int i = 0; i < length; i++) {
			bytes[i] = (byte) (seed + i * 7);
		}
		return bytes;
	}

	static long crc(byte[] data) {
		CRC32 crc = new CRC32();
		crc.update(data);
		return crc.getValue();
	}

	/** The server side: answers the three procedures. */
	static void serve(InboundCall call, ReplySender replier) {
		XdrDecoder decoder = call.decoder();
		RpcCall rpc = RpcMessageCodec.decodeCall(decoder);
		byte[] argument = decoder.readOpaqueBytes(Integer.MAX_VALUE);
		byte[] result;
		boolean opaqueResult = true;
		switch (rpc.procedure()) {
			case DIGEST -> {
				ByteBuffer digest = ByteBuffer.allocate(12).putInt(argument.length).putLong(crc(argument));
				result = digest.array();
				opaqueResult = false;
			}
			case GENERATE -> result = pattern(ByteBuffer.wrap(argument).getInt(), 3);
			default -> result = argument;
		}
		replier.reply(reply(rpc.xid(), result, opaqueResult));
	}

	static OutboundReply reply(int xid, byte[] result, boolean ddp) {
		int header = RpcMessageCodec.encodedSize(RpcReply.success(xid));
		ByteBuffer buffer = ByteBuffer.allocate(header + 4 + result.length + 3);
		XdrEncoder encoder = new XdrEncoder(buffer);
		RpcMessageCodec.encodeReply(RpcReply.success(xid), encoder);
		if (ddp) {
			encoder.writeOpaque(result);
		}
		else {
			encoder.writeFixedOpaque(result);
		}
		buffer.flip();
		return new OutboundReply(buffer, ddp ? List.of(new DdpRange(header + 4, result.length)) : List.of());
	}

	/**
	 * A reply whose opaque result is reduced from the message ({@link DdpRange#reduced}),
	 * followed in the message by {@code trailer}.
	 */
	static OutboundReply replyApart(int xid, byte[] result, int trailer) {
		int header = RpcMessageCodec.encodedSize(RpcReply.success(xid));
		ByteBuffer buffer = ByteBuffer.allocate(header + 8);
		XdrEncoder encoder = new XdrEncoder(buffer);
		RpcMessageCodec.encodeReply(RpcReply.success(xid), encoder);
		encoder.writeInt(result.length).writeInt(trailer);
		buffer.flip();
		return new OutboundReply(buffer, List.of(DdpRange.reduced(header + 4, ByteBuffer.wrap(result))));
	}

	/** Decodes an opaque result, from the Write chunk if it went there. */
	static byte[] opaqueResult(InboundReply reply) {
		XdrDecoder decoder = new XdrDecoder(reply.message().duplicate());
		RpcReply rpc = RpcMessageCodec.decodeReply(decoder);
		if (!rpc.isSuccess()) {
			throw new AssertionError("RPC failed: " + rpc);
		}
		if (!reply.writeChunks().isEmpty() && reply.writeChunks().get(0).remaining() > 0) {
			int length = decoder.readInt();
			ByteBuffer data = reply.writeChunks().get(0);
			if (data.remaining() != length) {
				throw new AssertionError("Write chunk holds " + data.remaining() + " bytes, XDR says " + length);
			}
			byte[] bytes = new byte[length];
			data.duplicate().get(bytes);
			return bytes;
		}
		return decoder.readOpaqueBytes(Integer.MAX_VALUE);
	}

	/** Decodes a DIGEST result: length and CRC. */
	static long[] digestResult(InboundReply reply) {
		XdrDecoder decoder = new XdrDecoder(reply.message().duplicate());
		RpcMessageCodec.decodeReply(decoder);
		return new long[] { decoder.readInt(), decoder.readHyper() };
	}

	static OutboundCall generate(int xid, int length, int writeChunk, int maxReply) {
		byte[] argument = ByteBuffer.allocate(4).putInt(length).array();
		return new OutboundCall(call(xid, GENERATE, argument), List.of(),
				(writeChunk > 0) ? List.of(writeChunk) : List.of(), maxReply);
	}

}
