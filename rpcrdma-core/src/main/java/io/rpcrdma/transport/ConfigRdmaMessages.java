package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.function.Function;

import io.rpcrdma.oncrpc.OncRpcException;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessage;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.protocol.Rfc8797PrivateData;
import io.rpcrdma.protocol.ccp.ConfigRdmaCodec;
import io.rpcrdma.protocol.ccp.ConfigRdmaProgram;
import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;

/**
 * The RPC messages of the in-band Connection Configuration Protocol (RFC 5666 §6.2): the
 * CONF_RDMA call a requester sends before its first RPC, the responder's answer to it, and
 * the requester's reading of that answer. Anything malformed is answered (responder) or
 * ignored (requester) so that both sides keep the version defaults; nothing here throws on
 * peer input.
 */
final class ConfigRdmaMessages {

	/** Offsets of the call header words RFC 5531 §9 fixes: msg_type, rpcvers, prog. */
	private static final int MSG_TYPE = 4;

	private static final int RPC_VERSION = 8;

	private static final int PROGRAM = 12;

	/** A successful CONF_RDMA reply with an AUTH_NONE verifier: six header words and three result words. */
	static final int MAX_REPLY_SIZE = 24 + ConfigRdmaCodec.ENCODED_LENGTH;

	private ConfigRdmaMessages() {
	}

	/**
	 * Encodes the CONF_RDMA call.
	 * @param xid its XID
	 * @param request the requester's sizes and read depth
	 * @return the encoded RPC call
	 */
	static ByteBuffer call(int xid, ConfigRdmaRequest request) {
		RpcCall header = RpcCall.of(xid, ConfigRdmaProgram.PROGRAM, ConfigRdmaProgram.VERSION,
				ConfigRdmaProgram.CONF_RDMA);
		ByteBuffer buffer = ByteBuffer.allocate(RpcMessageCodec.encodedSize(header) + ConfigRdmaCodec.ENCODED_LENGTH);
		XdrEncoder encoder = new XdrEncoder(buffer);
		RpcMessageCodec.encodeCall(header, encoder);
		ConfigRdmaCodec.encode(request, encoder);
		return buffer.flip();
	}

	/**
	 * Whether an inline message is an RPC call to program 100417, looking only at the header
	 * words every version 2 RPC call has at fixed offsets.
	 * @param message the RPC message
	 * @return whether the CCP responder should answer it
	 */
	static boolean isCcpCall(ByteBuffer message) {
		int base = message.position();
		return message.remaining() >= PROGRAM + 4 && message.getInt(base + MSG_TYPE) == RpcMessage.CALL
				&& message.getInt(base + RPC_VERSION) == RpcCall.RPC_VERSION
				&& message.getInt(base + PROGRAM) == ConfigRdmaProgram.PROGRAM;
	}

	/**
	 * Answers a CCP call as an RPC server of program 100417 version 1 would: NULL and
	 * CONF_RDMA are served, another version gets PROG_MISMATCH(1, 1), another procedure
	 * PROC_UNAVAIL, arguments that do not decode or sizes below the 1024-byte minimum every
	 * receiver supports (RFC 8166 §3.3.2) GARBAGE_ARGS.
	 * @param message the RPC call
	 * @param negotiate turns a valid request into the reply, applying it to the connection
	 * @return the encoded RPC reply
	 */
	static ByteBuffer answer(ByteBuffer message, Function<ConfigRdmaRequest, ConfigRdmaReply> negotiate) {
		XdrDecoder decoder = new XdrDecoder(message.duplicate());
		RpcCall call;
		try {
			call = RpcMessageCodec.decodeCall(decoder);
		}
		catch (OncRpcException | XdrException ex) {
			RpcReply refusal = (ex instanceof OncRpcException rpc) ? rpc.reply().orElse(null) : null;
			return encode((refusal != null) ? refusal : RpcReply.garbageArgs(message.getInt(message.position())), null);
		}
		int xid = call.xid();
		if (call.version() != ConfigRdmaProgram.VERSION) {
			return encode(RpcReply.progMismatch(xid, ConfigRdmaProgram.VERSION, ConfigRdmaProgram.VERSION), null);
		}
		if (call.procedure() == 0) {
			return encode(RpcReply.success(xid), null);
		}
		if (call.procedure() != ConfigRdmaProgram.CONF_RDMA) {
			return encode(RpcReply.procUnavail(xid), null);
		}
		ConfigRdmaRequest request;
		try {
			request = ConfigRdmaCodec.decodeRequest(decoder);
		}
		catch (XdrException ex) {
			return encode(RpcReply.garbageArgs(xid), null);
		}
		if (request.maxCallSendSize() < Rfc8797PrivateData.MIN_SIZE
				|| request.maxReplySendSize() < Rfc8797PrivateData.MIN_SIZE) {
			return encode(RpcReply.garbageArgs(xid), null);
		}
		return encode(RpcReply.success(xid), negotiate.apply(request));
	}

	/**
	 * Reads the answer to a CONF_RDMA call.
	 * @param message the RPC reply
	 * @param xid the call's XID
	 * @return the server's values, or empty if the reply is not a successful CONF_RDMA result
	 * with usable sizes (the responder does not speak CCP, or sent nonsense)
	 */
	static Optional<ConfigRdmaReply> readReply(ByteBuffer message, int xid) {
		try {
			XdrDecoder decoder = new XdrDecoder(message.duplicate());
			RpcReply reply = RpcMessageCodec.decodeReply(decoder);
			if (reply.xid() != xid || !reply.isSuccess() || decoder.remaining() < ConfigRdmaCodec.ENCODED_LENGTH) {
				return Optional.empty();
			}
			ConfigRdmaReply result = ConfigRdmaCodec.decodeReply(decoder);
			if (result.maxCallSendSize() < Rfc8797PrivateData.MIN_SIZE) {
				// RFC 8166 §3.3.2: no receiver accepts less than 1024 bytes; a smaller value is
				// a broken peer, whose other values are not to be trusted either.
				return Optional.empty();
			}
			return Optional.of(result);
		}
		catch (OncRpcException | XdrException | IllegalArgumentException ex) {
			return Optional.empty();
		}
	}

	private static ByteBuffer encode(RpcReply reply, ConfigRdmaReply result) {
		int length = RpcMessageCodec.encodedSize(reply) + ((result != null) ? ConfigRdmaCodec.ENCODED_LENGTH : 0);
		ByteBuffer buffer = ByteBuffer.allocate(length);
		XdrEncoder encoder = new XdrEncoder(buffer);
		RpcMessageCodec.encodeReply(reply, encoder);
		if (result != null) {
			ConfigRdmaCodec.encode(result, encoder);
		}
		return buffer.flip();
	}

	/**
	 * A CCP size as an int the thresholds can use: at most the largest inline size RFC 8797
	 * can express, which is also the most any configuration allows.
	 */
	static int size(long value) {
		return (int) Math.min(value, Rfc8797PrivateData.MAX_SIZE);
	}

}
