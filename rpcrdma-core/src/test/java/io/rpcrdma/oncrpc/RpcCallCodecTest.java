package io.rpcrdma.oncrpc;

import static io.rpcrdma.oncrpc.RpcWire.assertWire;
import static io.rpcrdma.oncrpc.RpcWire.decoder;
import static org.assertj.core.api.Assertions.assertThat;

import io.rpcrdma.xdr.BufferKind;
import io.rpcrdma.xdr.EachBuffer;
import io.rpcrdma.xdr.XdrDecoder;

/**
 * Byte-exact call headers (RFC 5531 §9 {@code rpc_msg} with {@code call_body}) in both
 * directions, over every buffer kind, with the arguments left in place after the header.
 */
class RpcCallCodecTest {

	/** NFSv3 NULL with AUTH_NONE credential and verifier. */
	static final String CALL_AUTH_NONE = """
			7b3c4d5e /* xid */
			00000000 /* msg_type CALL */
			00000002 /* rpcvers 2 */
			000186a3 /* prog 100003 (NFS) */
			00000003 /* vers 3 */
			00000000 /* proc 0 (NULL) */
			00000000 /* cred flavor AUTH_NONE */
			00000000 /* cred body length 0 */
			00000000 /* verf flavor AUTH_NONE */
			00000000 /* verf body length 0 */
			""";

	/** NFSv3 GETATTR with an AUTH_SYS credential (RFC 5531 Appendix A). */
	static final String CALL_AUTH_SYS = """
			00000102 /* xid */
			00000000 /* msg_type CALL */
			00000002 /* rpcvers 2 */
			000186a3 /* prog 100003 (NFS) */
			00000003 /* vers 3 */
			00000001 /* proc 1 (GETATTR) */
			00000001 /* cred flavor AUTH_SYS */
			00000024 /* cred body length 36 */
			12345678 /*   stamp */
			00000006 /*   machinename length 6 */
			636c6965 6e740000 /*   "client" and 2 bytes of padding */
			000003e8 /*   uid 1000 */
			00000064 /*   gid 100 */
			00000002 /*   gids count 2 */
			00000064 /*   gids[0] 100 */
			0000000a /*   gids[1] 10 */
			00000000 /* verf flavor AUTH_NONE */
			00000000 /* verf body length 0 */
			""";

	@EachBuffer
	void callWithAuthNone(BufferKind kind) {
		assertWire(kind, RpcCall.of(0x7b3c4d5e, 100003, 3, 0), CALL_AUTH_NONE);
	}

	@EachBuffer
	void callWithAuthSys(BufferKind kind) {
		AuthSys credential = new AuthSys(0x12345678, "client", 1000, 100, new int[] { 100, 10 });
		assertWire(kind, RpcCall.of(0x102, 100003, 3, 1, credential), CALL_AUTH_SYS);
	}

	@EachBuffer
	void callWithAuthSysOfEmptyNameNoGroupsAndUnsignedIds(BufferKind kind) {
		AuthSys credential = new AuthSys(-1, "", -2, -2, new int[0]);
		assertWire(kind, RpcCall.of(-1, -1, -1, -1, credential), """
				ffffffff /* xid 4294967295 */
				00000000 /* CALL */
				00000002 /* rpcvers 2 */
				ffffffff /* prog 4294967295: unsigned, kept as 32 bits */
				ffffffff /* vers */
				ffffffff /* proc */
				00000001 /* cred flavor AUTH_SYS */
				00000014 /* cred body length 20 */
				ffffffff /*   stamp */
				00000000 /*   machinename "" */
				fffffffe /*   uid 4294967294 (nobody) */
				fffffffe /*   gid 4294967294 */
				00000000 /*   gids count 0 */
				00000000 00000000 /* verf AUTH_NONE */
				""");
		assertThat(Integer.toUnsignedLong(credential.uid())).isEqualTo(4294967294L);
	}

	@EachBuffer
	void callWithUnknownFlavorKeepsTheBodyOpaque(BufferKind kind) {
		// An RPCSEC_GSS credential and verifier are carried, not interpreted (RFC 5531 §8.2).
		RpcCall call = new RpcCall(7, 100003, 4, 1, new RawAuth(AuthFlavor.RPCSEC_GSS, new byte[] { 1, 2, 3, 4, 5 }),
				new RawAuth(AuthFlavor.RPCSEC_GSS, new byte[] { (byte) 0xaa, (byte) 0xbb }));
		assertWire(kind, call, """
				00000007 /* xid */
				00000000 /* CALL */
				00000002 /* rpcvers 2 */
				000186a3 /* prog 100003 */
				00000004 /* vers 4 */
				00000001 /* proc 1 */
				00000006 /* cred flavor RPCSEC_GSS */
				00000005 /* cred body length 5 */
				01020304 05000000 /* body and 3 bytes of padding */
				00000006 /* verf flavor RPCSEC_GSS */
				00000002 /* verf body length 2 */
				aabb0000 /* body and 2 bytes of padding */
				""");
	}

	@EachBuffer
	void callWithFlavorNumberBeyondTwoToTheThirtyOneIsCarried(BufferKind kind) {
		RpcCall call = RpcCall.of(1, 2, 3, 4, new RawAuth(0x80000001, new byte[0]));
		assertWire(kind, call, """
				00000001 00000000 00000002 00000002 00000003 00000004 /* xid 1, CALL, v2, prog 2, vers 3, proc 4 */
				80000001 00000000 /* cred: flavor 2147483649, empty body */
				00000000 00000000 /* verf AUTH_NONE */
				""");
	}

	@EachBuffer
	void callWithLargestCredentialBody(BufferKind kind) {
		// RFC 5531 §8.2: opaque body<400>; exactly 400 bytes is allowed.
		RpcCall call = RpcCall.of(9, 1, 1, 1, new RawAuth(AuthFlavor.AUTH_DH, new byte[400]));
		assertWire(kind, call, """
				00000009 00000000 00000002 00000001 00000001 00000001 /* header */
				00000003 /* cred flavor AUTH_DH */
				00000190 /* cred body length 400 */
				""" + "00".repeat(400) + """
				00000000 00000000 /* verf AUTH_NONE */
				""");
	}

	@EachBuffer
	void authNoneBodyIsIgnoredWhenNotEmpty(BufferKind kind) {
		// RFC 5531 §10.1: the AUTH_NONE body is undefined, a zero length only recommended.
		XdrDecoder decoder = decoder(kind, """
				00000001 00000000 00000002 00000064 00000001 00000000 /* xid 1, CALL, v2, prog 100, vers 1, proc 0 */
				00000000 /* cred flavor AUTH_NONE */
				00000003 /* cred body length 3 */
				01020300 /* body and padding, skipped */
				00000000 00000000 /* verf AUTH_NONE */
				cafebabe /* arguments */
				""");
		assertThat(RpcMessageCodec.decodeCall(decoder)).isEqualTo(RpcCall.of(1, 100, 1, 0));
		assertThat(decoder.readInt()).isEqualTo(RpcWire.BODY);
	}

	@EachBuffer
	void decodedAuthNoneIsTheSharedInstance(BufferKind kind) {
		RpcCall call = RpcMessageCodec.decodeCall(decoder(kind, CALL_AUTH_NONE));
		assertThat(call.credential()).isSameAs(AuthNone.INSTANCE);
		assertThat(call.verifier()).isSameAs(AuthNone.INSTANCE);
	}

}
