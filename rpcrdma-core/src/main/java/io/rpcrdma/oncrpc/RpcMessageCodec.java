package io.rpcrdma.oncrpc;

import java.nio.ByteBuffer;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;
import io.rpcrdma.xdr.XdrInvalidValueException;
import io.rpcrdma.xdr.XdrLimitExceededException;
import io.rpcrdma.xdr.XdrOverflowException;
import io.rpcrdma.xdr.XdrTruncatedException;

/**
 * Encodes and decodes ONC RPC message headers (RFC 5531 §9) with the XDR codec.
 * <p>
 * Only the header is handled; procedure arguments and results are opaque here.
 * {@code decode*} leaves the decoder positioned at the first byte after the header (the
 * arguments of a call, the results of a successful reply), so the layer above reads them in
 * place without a copy. {@code encode*} writes only the header, and the caller writes the
 * arguments or results next. An encode either writes the whole header or, when the buffer
 * is too small, throws {@link XdrOverflowException} having written nothing.
 * <p>
 * Decoding trusts nothing in the message: every length is bounded before use (auth bodies by
 * RFC 5531 §8.2, AUTH_SYS fields by RFC 5531 Appendix A), so a hostile count is rejected
 * before anything is allocated from it. Errors after the xid are {@link OncRpcException}s
 * carrying that xid: {@link MessageTypeException}, {@link RpcVersionMismatchException},
 * {@link BadAuthException}, {@link UnknownStatusException},
 * {@link TruncatedMessageException}. After an exception the decoder's position is
 * unspecified.
 */
public final class RpcMessageCodec {

	/** xid, msg_type, rpcvers, prog, vers, proc. */
	private static final int CALL_FIXED_SIZE = 6 * Xdr.UNIT;

	/** xid, msg_type, reply_stat. */
	private static final int REPLY_FIXED_SIZE = 3 * Xdr.UNIT;

	private RpcMessageCodec() {
	}

	/**
	 * Writes a call or reply header.
	 * @param message the header
	 * @param encoder where to write it
	 * @throws XdrOverflowException if the header does not fit; nothing was written
	 */
	public static void encode(RpcMessage message, XdrEncoder encoder) {
		if (message instanceof RpcCall call) {
			encodeCall(call, encoder);
		}
		else {
			encodeReply((RpcReply) message, encoder);
		}
	}

	/**
	 * Writes a call header (RFC 5531 §9 {@code rpc_msg} with {@code call_body}); the caller
	 * writes the procedure arguments next.
	 * @param call the header
	 * @param encoder where to write it
	 * @throws XdrOverflowException if the header does not fit; nothing was written
	 */
	public static void encodeCall(RpcCall call, XdrEncoder encoder) {
		ensureRoom("ONC RPC call header", encodedSize(call), encoder);
		encoder.writeInt(call.xid())
			.writeInt(RpcMessage.CALL)
			.writeInt(RpcCall.RPC_VERSION)
			.writeInt(call.program())
			.writeInt(call.version())
			.writeInt(call.procedure());
		encodeAuth(call.credential(), encoder);
		encodeAuth(call.verifier(), encoder);
	}

	/**
	 * Writes a call header with an AUTH_NONE credential and verifier without building an
	 * {@link RpcCall}, for the call path; the bytes are those {@link #encodeCall(RpcCall, XdrEncoder)}
	 * writes for {@code RpcCall.of(xid, program, version, procedure)}.
	 * @param xid the transaction id
	 * @param program the program
	 * @param version its version
	 * @param procedure the procedure
	 * @param encoder where to write it
	 * @throws XdrOverflowException if the header does not fit; nothing was written
	 */
	public static void encodeCall(int xid, int program, int version, int procedure, XdrEncoder encoder) {
		ensureRoom("ONC RPC call header", 10 * 4, encoder);
		encoder.writeInt(xid)
			.writeInt(RpcMessage.CALL)
			.writeInt(RpcCall.RPC_VERSION)
			.writeInt(program)
			.writeInt(version)
			.writeInt(procedure)
			.writeInt(AuthFlavor.AUTH_NONE)
			.writeInt(0)
			.writeInt(AuthFlavor.AUTH_NONE)
			.writeInt(0);
	}

	/**
	 * Writes the header of a MSG_ACCEPTED SUCCESS reply with an AUTH_NONE verifier from its
	 * XID alone: the bytes {@link #encodeReply} writes for {@code RpcReply.success(xid)}, the
	 * header every successful call gets, without building it.
	 * @param xid the transaction id of the call answered
	 * @param encoder where to write it
	 * @throws XdrOverflowException if the header does not fit; nothing was written
	 */
	public static void encodeSuccessHeader(int xid, XdrEncoder encoder) {
		ensureRoom("ONC RPC reply header", 6 * 4, encoder);
		encoder.writeInt(xid)
			.writeInt(RpcMessage.REPLY)
			.writeInt(ReplyBody.MSG_ACCEPTED)
			.writeInt(AuthFlavor.AUTH_NONE)
			.writeInt(0)
			.writeInt(AcceptStatus.Success.CODE);
	}

	/**
	 * Steps over the header of a MSG_ACCEPTED SUCCESS reply with an AUTH_NONE verifier without
	 * building it, the reply every successful call gets, so the call path reaches the results
	 * without allocating. Any other reply (an error, another verifier flavour, a short or odd
	 * message) leaves the decoder where it was, for {@link #decodeReply} to read in full and
	 * report.
	 * @param decoder at the start of the reply
	 * @return whether the decoder now stands at the results
	 */
	public static boolean skipSuccessHeader(XdrDecoder decoder) {
		ByteBuffer buffer = decoder.buffer();
		int start = buffer.position();
		int limit = buffer.limit();
		// xid, mtype, reply_stat, verifier flavor and length (RFC 5531 §9)
		if (limit - start < 6 * 4 || buffer.getInt(start + 4) != RpcMessage.REPLY
				|| buffer.getInt(start + 8) != ReplyBody.MSG_ACCEPTED || buffer.getInt(start + 12) != AuthFlavor.AUTH_NONE) {
			return false;
		}
		int length = buffer.getInt(start + 16);
		if (length < 0 || length > OpaqueAuth.MAX_BODY_LENGTH) {
			return false;
		}
		int status = start + 20 + (int) Xdr.pad(length);
		if (status + 4 > limit || buffer.getInt(status) != AcceptStatus.Success.CODE) {
			return false;
		}
		decoder.skip(status + 4 - start);
		return true;
	}

	/**
	 * Writes a reply header (RFC 5531 §9 {@code rpc_msg} with {@code reply_body}); after a
	 * SUCCESS header the caller writes the procedure results next.
	 * @param reply the header
	 * @param encoder where to write it
	 * @throws XdrOverflowException if the header does not fit; nothing was written
	 */
	public static void encodeReply(RpcReply reply, XdrEncoder encoder) {
		ensureRoom("ONC RPC reply header", encodedSize(reply), encoder);
		ReplyBody body = reply.body();
		encoder.writeInt(reply.xid()).writeInt(RpcMessage.REPLY).writeInt(body.replyStat());
		if (body instanceof AcceptedReply accepted) {
			encodeAuth(accepted.verifier(), encoder);
			AcceptStatus status = accepted.status();
			encoder.writeInt(status.code());
			if (status instanceof AcceptStatus.ProgMismatch mismatch) {
				encoder.writeInt(mismatch.low()).writeInt(mismatch.high());
			}
		}
		else {
			DeniedReply denied = (DeniedReply) body;
			encoder.writeInt(denied.rejectStat());
			if (denied instanceof DeniedReply.RpcMismatch mismatch) {
				encoder.writeInt(mismatch.low()).writeInt(mismatch.high());
			}
			else {
				encoder.writeInt(((DeniedReply.AuthError) denied).status().code());
			}
		}
	}

	/**
	 * Returns the number of bytes {@link #encode} writes for a header, for example to decide
	 * whether a message fits the inline threshold.
	 * @param message the header
	 * @return its encoded size in bytes, a multiple of four
	 */
	public static int encodedSize(RpcMessage message) {
		if (message instanceof RpcCall call) {
			return CALL_FIXED_SIZE + encodedSize(call.credential()) + encodedSize(call.verifier());
		}
		ReplyBody body = ((RpcReply) message).body();
		if (body instanceof AcceptedReply accepted) {
			int mismatch = (accepted.status() instanceof AcceptStatus.ProgMismatch) ? 2 * Xdr.UNIT : 0;
			return REPLY_FIXED_SIZE + encodedSize(accepted.verifier()) + Xdr.UNIT + mismatch;
		}
		// reject_stat, then low and high or the auth_stat.
		return REPLY_FIXED_SIZE + Xdr.UNIT + ((body instanceof DeniedReply.RpcMismatch) ? 2 * Xdr.UNIT : Xdr.UNIT);
	}

	/**
	 * Returns the number of bytes an {@code opaque_auth} takes on the wire.
	 * @param auth a credential or verifier
	 * @return flavor, length and padded body, in bytes
	 */
	public static int encodedSize(OpaqueAuth auth) {
		return 2 * Xdr.UNIT + (int) Xdr.pad(bodyLength(auth));
	}

	/**
	 * Reads a call or reply header, leaving the decoder at the arguments or results.
	 * @param decoder positioned at the start of the message
	 * @return the header
	 * @throws OncRpcException if the header is invalid (the exception carries the xid)
	 * @throws XdrTruncatedException if the message is too short to hold even an xid
	 */
	public static RpcMessage decode(XdrDecoder decoder) {
		return decode(decoder, -1);
	}

	/**
	 * Reads a call header, leaving the decoder at the procedure arguments.
	 * @param decoder positioned at the start of the message
	 * @return the header
	 * @throws RpcVersionMismatchException if {@code rpcvers} is not 2; send its
	 * {@link OncRpcException#reply() reply}
	 * @throws BadAuthException if the credential or verifier is malformed; send its
	 * {@link OncRpcException#reply() reply}
	 * @throws MessageTypeException if the message is not a call
	 * @throws TruncatedMessageException if the message ends inside the header
	 * @throws XdrTruncatedException if the message is too short to hold even an xid
	 */
	public static RpcCall decodeCall(XdrDecoder decoder) {
		return (RpcCall) decode(decoder, RpcMessage.CALL);
	}

	/**
	 * Reads a reply header, leaving the decoder at the procedure results when the reply is
	 * {@link RpcReply#isSuccess() SUCCESS}.
	 * @param decoder positioned at the start of the message
	 * @return the header
	 * @throws UnknownStatusException if a status value is not defined by RFC 5531
	 * @throws BadAuthException if the verifier is malformed
	 * @throws MessageTypeException if the message is not a reply
	 * @throws TruncatedMessageException if the message ends inside the header
	 * @throws XdrTruncatedException if the message is too short to hold even an xid
	 */
	public static RpcReply decodeReply(XdrDecoder decoder) {
		return (RpcReply) decode(decoder, RpcMessage.REPLY);
	}

	private static RpcMessage decode(XdrDecoder decoder, int expectedType) {
		int xid = decoder.readInt();
		try {
			int type = decoder.readInt();
			if (type != RpcMessage.CALL && type != RpcMessage.REPLY) {
				throw MessageTypeException.unknown(xid, type);
			}
			if (expectedType >= 0 && type != expectedType) {
				throw MessageTypeException.unexpected(xid, type);
			}
			return (type == RpcMessage.CALL) ? decodeCallBody(xid, decoder) : decodeReplyBody(xid, decoder);
		}
		catch (XdrTruncatedException ex) {
			throw new TruncatedMessageException(xid, ex);
		}
	}

	private static RpcCall decodeCallBody(int xid, XdrDecoder decoder) {
		int rpcVersion = decoder.readInt();
		if (rpcVersion != RpcCall.RPC_VERSION) {
			// RFC 5531 §9: the rest of a call of another RPC version has an unknown layout, so
			// stop here; the exception carries the RPC_MISMATCH reply the server must send.
			throw new RpcVersionMismatchException(xid, rpcVersion);
		}
		int program = decoder.readInt();
		int version = decoder.readInt();
		int procedure = decoder.readInt();
		OpaqueAuth credential = decodeAuth(decoder, xid, AuthStat.AUTH_BADCRED);
		OpaqueAuth verifier = decodeAuth(decoder, xid, AuthStat.AUTH_BADVERF);
		return new RpcCall(xid, program, version, procedure, credential, verifier);
	}

	private static RpcReply decodeReplyBody(int xid, XdrDecoder decoder) {
		int replyStat = decoder.readInt();
		if (replyStat == ReplyBody.MSG_ACCEPTED) {
			OpaqueAuth verifier = decodeAuth(decoder, xid, AuthStat.AUTH_INVALIDRESP);
			return new RpcReply(xid, RpcReply.accepted(verifier, decodeAcceptStatus(xid, decoder)));
		}
		if (replyStat == ReplyBody.MSG_DENIED) {
			return new RpcReply(xid, decodeDenied(xid, decoder));
		}
		throw new UnknownStatusException(xid, "reply_stat", replyStat, "MSG_ACCEPTED 0, MSG_DENIED 1");
	}

	private static AcceptStatus decodeAcceptStatus(int xid, XdrDecoder decoder) {
		int acceptStat = decoder.readInt();
		return switch (acceptStat) {
			case AcceptStatus.Success.CODE -> AcceptStatus.SUCCESS;
			case AcceptStatus.ProgUnavail.CODE -> AcceptStatus.PROG_UNAVAIL;
			case AcceptStatus.ProgMismatch.CODE -> new AcceptStatus.ProgMismatch(decoder.readInt(), decoder.readInt());
			case AcceptStatus.ProcUnavail.CODE -> AcceptStatus.PROC_UNAVAIL;
			case AcceptStatus.GarbageArgs.CODE -> AcceptStatus.GARBAGE_ARGS;
			case AcceptStatus.SystemErr.CODE -> AcceptStatus.SYSTEM_ERR;
			default -> throw new UnknownStatusException(xid, "accept_stat", acceptStat,
					"SUCCESS 0, PROG_UNAVAIL 1, PROG_MISMATCH 2, PROC_UNAVAIL 3, GARBAGE_ARGS 4, SYSTEM_ERR 5");
		};
	}

	private static DeniedReply decodeDenied(int xid, XdrDecoder decoder) {
		int rejectStat = decoder.readInt();
		if (rejectStat == DeniedReply.RpcMismatch.CODE) {
			return new DeniedReply.RpcMismatch(decoder.readInt(), decoder.readInt());
		}
		if (rejectStat == DeniedReply.AuthError.CODE) {
			int code = decoder.readInt();
			AuthStat status = AuthStat.lookup(code);
			if (status == null) {
				throw new UnknownStatusException(xid, "auth_stat", code, "AUTH_OK 0 to RPCSEC_GSS_CTXPROBLEM 14");
			}
			return new DeniedReply.AuthError(status);
		}
		throw new UnknownStatusException(xid, "reject_stat", rejectStat, "RPC_MISMATCH 0, AUTH_ERROR 1");
	}

	/**
	 * Reads an {@code opaque_auth} (RFC 5531 §8.2). A body that is too long or does not hold its
	 * flavor's structure is the peer's fault in this field ({@code fault}); a body that runs
	 * past the end of the message is a truncated message.
	 */
	private static OpaqueAuth decodeAuth(XdrDecoder decoder, int xid, AuthStat fault) {
		int flavor = decoder.readInt();
		int length;
		try {
			length = decoder.readLength("opaque_auth body length", OpaqueAuth.MAX_BODY_LENGTH);
		}
		catch (XdrLimitExceededException ex) {
			throw new BadAuthException(xid, fault, AuthFlavor.name(flavor)
					+ " body exceeds the 400 bytes RFC 5531 §8.2 allows: " + ex.getMessage(), ex);
		}
		long padded = Xdr.pad(length);
		if (padded > decoder.remaining()) {
			throw new XdrTruncatedException(AuthFlavor.name(flavor) + " opaque_auth body", padded,
					decoder.remaining());
		}
		switch (flavor) {
			case AuthFlavor.AUTH_NONE:
				// RFC 5531 §10.1: the AUTH_NONE body is undefined (a zero length is only
				// recommended), so skip whatever is there.
				decoder.skip(length);
				return AuthNone.INSTANCE;
			case AuthFlavor.AUTH_SYS:
				return decodeAuthSys(decoder, xid, fault, length);
			default:
				ByteBuffer body = decoder.readFixedOpaque(length);
				byte[] bytes = new byte[length];
				body.get(bytes);
				return new RawAuth(flavor, bytes);
		}
	}

	/**
	 * Reads {@code authsys_parms} (RFC 5531 Appendix A) confined to the body's {@code length}
	 * bytes: the buffer's limit is set to the end of the body, so no field can reach into the
	 * verifier or the arguments, and the parms must fill the body exactly.
	 */
	private static AuthSys decodeAuthSys(XdrDecoder decoder, int xid, AuthStat fault, int length) {
		ByteBuffer buffer = decoder.buffer();
		int end = buffer.position() + length;
		int limit = buffer.limit();
		buffer.limit(end);
		try {
			int stamp = decoder.readInt();
			String machineName = decoder.readString(AuthSys.MAX_MACHINE_NAME_LENGTH);
			int uid = decoder.readInt();
			int gid = decoder.readInt();
			// Bounded by 16 before the array is allocated.
			int count = decoder.readArrayCount("AUTH_SYS gids", AuthSys.MAX_GIDS, Xdr.UNIT);
			int[] gids = new int[count];
			for (int i = 0; i < count; i++) {
				gids[i] = decoder.readInt();
			}
			if (decoder.remaining() != 0) {
				throw new XdrInvalidValueException(decoder.remaining() + " bytes follow authsys_parms inside the body");
			}
			return new AuthSys(stamp, machineName, uid, gid, gids);
		}
		catch (XdrException ex) {
			throw new BadAuthException(xid, fault,
					"AUTH_SYS body of " + length + " bytes does not hold authsys_parms (RFC 5531 Appendix A): "
							+ ex.getMessage(),
					ex);
		}
		finally {
			buffer.limit(limit);
		}
	}

	/**
	 * Writes a call header up to and including its credential: the bytes an RPCSEC_GSS
	 * verifier's MIC covers (RFC 2203 §5.3.1). The verifier follows with {@link #encodeAuth}.
	 * @param xid the transaction id
	 * @param program the program
	 * @param version its version
	 * @param procedure the procedure
	 * @param credential the credential
	 * @param encoder where to write
	 * @throws XdrOverflowException if the header does not fit; nothing was written
	 */
	public static void encodeCallThroughCredential(int xid, int program, int version, int procedure,
			OpaqueAuth credential, XdrEncoder encoder) {
		ensureRoom("ONC RPC call header", 6 * 4 + encodedSize(credential), encoder);
		encoder.writeInt(xid)
			.writeInt(RpcMessage.CALL)
			.writeInt(RpcCall.RPC_VERSION)
			.writeInt(program)
			.writeInt(version)
			.writeInt(procedure);
		encodeAuth(credential, encoder);
	}

	/**
	 * Writes one {@code opaque_auth} (RFC 5531 §8.2).
	 * @param auth the credential or verifier
	 * @param encoder where to write
	 */
	public static void encodeAuth(OpaqueAuth auth, XdrEncoder encoder) {
		encoder.writeInt(auth.flavor());
		if (auth instanceof AuthNone) {
			encoder.writeInt(0);
		}
		else if (auth instanceof AuthSys sys) {
			encoder.writeInt(sys.bodyLength())
				.writeInt(sys.stamp())
				.writeString(sys.machineName())
				.writeInt(sys.uid())
				.writeInt(sys.gid())
				.writeInt(sys.gidCount());
			for (int i = 0; i < sys.gidCount(); i++) {
				encoder.writeInt(sys.gid(i));
			}
		}
		else {
			encoder.writeOpaque(((RawAuth) auth).bodyView());
		}
	}

	private static int bodyLength(OpaqueAuth auth) {
		if (auth instanceof AuthSys sys) {
			return sys.bodyLength();
		}
		if (auth instanceof RawAuth raw) {
			return raw.bodyLength();
		}
		return 0;
	}

	private static void ensureRoom(String what, int size, XdrEncoder encoder) {
		if (size > encoder.remaining()) {
			throw new XdrOverflowException(what, size, encoder.remaining());
		}
	}

}
