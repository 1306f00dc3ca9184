package io.rpcrdma.server;

import java.util.Objects;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * What a retransmission repeats of a call, and so what the {@link DuplicateRequestCache}
 * recognises it by: the fields Linux's nfsd compares ({@code nfsd_cache_key_cmp}: xid,
 * procedure, version, length and checksum) plus the program, with the requester's host in
 * place of its address and port (see {@link RequesterAddress} for why the port is left to the
 * entry's owner).
 * <p>
 * RFC 5531 §9: the xid only lets "servers detect retransmissions"; it is no identity by itself
 * (a client's xids wrap, two clients on one host may pick the same), so everything the call
 * carries is compared too, through its length and CRC32C checksum.
 *
 * @param origin who asks: the requester's host, or for RPCSEC_GSS its host and principal
 * @param xid the call's xid
 * @param program its program
 * @param version its version
 * @param procedure its procedure
 * @param length how many bytes the checksum covers
 * @param checksum {@link DuplicateRequestCache#checksum} of the call after its xid, or for
 * RPCSEC_GSS {@link DuplicateRequestCache#checksumOfRequest} of its plain arguments
 */
public record CallIdentity(Object origin, int xid, int program, int version, int procedure, int length,
		int checksum) {

	/**
	 * @param origin who asks
	 * @param xid the xid
	 * @param program the program
	 * @param version the version
	 * @param procedure the procedure
	 * @param length the bytes checksummed
	 * @param checksum their checksum
	 */
	public CallIdentity {
		Objects.requireNonNull(origin, "origin");
	}

	@Override
	public String toString() {
		return "xid " + RpcDispatcher.xid(this.xid) + " from " + this.origin + " to " + ProgramNumberText.hex(this.program)
				+ "/" + Integer.toUnsignedString(this.version) + "/" + Integer.toUnsignedString(this.procedure);
	}

}
