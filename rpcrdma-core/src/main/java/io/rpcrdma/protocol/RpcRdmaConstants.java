package io.rpcrdma.protocol;

/**
 * Numbers that RPC-over-RDMA puts on the wire: protocol versions, procedure numbers, error
 * codes and the fixed sizes of XDR items in a transport header.
 * <p>
 * Version 1 values come from the XDR of RFC 5666 §4.3 (unchanged by RFC 8166 §4.1.2); Version 2
 * values from draft-cel-nfsv4-rpcrdma-version-two-00 §4.2, whose enums reuse the Version 1
 * names ({@code RDMA_MSG}, {@code RDMA_ERR_VERS}, ...). Constants here carry a {@code RDMA2_}
 * prefix where Version 2 differs, so the two cannot be confused in code.
 */
public final class RpcRdmaConstants {

	/** RFC 5666 §4.1: "This version of the RPC RDMA message protocol is 1." */
	public static final int VERSION_1 = 1;

	/** draft-cel-nfsv4-rpcrdma-version-two-00 §5: a Version Two requester sends rdma_vers 2. */
	public static final int VERSION_2 = 2;

	/** RFC 5666 §4.3 rdma_proc: an RPC call or reply follows the chunk lists. */
	public static final int RDMA_MSG = 0;

	/** RFC 5666 §4.3 rdma_proc: the RPC message travels in a chunk, not after the header. */
	public static final int RDMA_NOMSG = 1;

	/**
	 * RFC 5666 §4.3 rdma_proc: RPC message with padding (rdma_align, rdma_thresh). RFC 8166
	 * §4.6.1 deprecates it; draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 reserves it.
	 */
	public static final int RDMA_MSGP = 2;

	/**
	 * RFC 5666 §4.3 rdma_proc: the requester finished RDMA Reads of a reply's read chunks.
	 * RFC 8166 §4.6.2 deprecates it; draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 reserves it.
	 */
	public static final int RDMA_DONE = 3;

	/** RFC 5666 §4.3 rdma_proc: an RPC-over-RDMA error; the same value in Version 2. */
	public static final int RDMA_ERROR = 4;

	/** draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 rpcrdma2_proc RDMA_OPTIONAL. */
	public static final int RDMA2_OPTIONAL = 5;

	/** RFC 5666 §4.3 rpc_rdma_errcode ERR_VERS; the same value is RDMA_ERR_VERS in Version 2. */
	public static final int ERR_VERS = 1;

	/** RFC 5666 §4.3 rpc_rdma_errcode ERR_CHUNK (Version 1 only). */
	public static final int ERR_CHUNK = 2;

	/** draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 rpcrdma2_errcode RDMA_ERR_BAD_HEADER. */
	public static final int RDMA2_ERR_BAD_HEADER = 2;

	/** draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 rpcrdma2_errcode RDMA_ERR_INVAL_OPTION. */
	public static final int RDMA2_ERR_INVAL_OPTION = 3;

	/** RFC 5666 §4.1: xid, vers, credit and proc are always present: four XDR words. */
	public static final int FIXED_HEADER_LENGTH = 16;

	/** RFC 5666 §4.3 xdr_rdma_segment: handle, length (uint32 each) and offset (uint64). */
	public static final int SEGMENT_LENGTH = 16;

	/** RFC 5666 §4.3 xdr_read_chunk: position plus a segment. */
	public static final int READ_SEGMENT_LENGTH = 4 + SEGMENT_LENGTH;

	/**
	 * The fewest bytes of an RPC message the transport inspects: the XID, which RFC 5666 §4.1
	 * requires to equal rdma_xid, and msg_type (RFC 5531 §9), which a bidirectional transport
	 * (RFC 8167) needs to tell calls from replies. Checking the rest is the RPC layer's job.
	 */
	public static final int MIN_RPC_MESSAGE_LENGTH = 8;

	private RpcRdmaConstants() {
	}

}
