package io.rpcrdma.verbs;

/**
 * Access rights of a registered {@link MemoryRegion}, as in verbs
 * ({@code IBV_ACCESS_LOCAL_WRITE}, {@code IBV_ACCESS_REMOTE_READ},
 * {@code IBV_ACCESS_REMOTE_WRITE}) and the iWARP access rights of RFC 5040.
 * <p>
 * Local read access is always granted. As in verbs, {@link #REMOTE_WRITE} requires
 * {@link #LOCAL_WRITE}: a region the peer may write must be writable locally too.
 */
public enum AccessFlag {

	/**
	 * The local adapter may write the region: needed by receive buffers and by the local
	 * sink of an RDMA Read.
	 */
	LOCAL_WRITE,

	/**
	 * The peer may read the region with RDMA Read (the source of a Read chunk, RFC 5666 §3.4).
	 */
	REMOTE_READ,

	/**
	 * The peer may write the region with RDMA Write (a Write or Reply chunk, RFC 5666 §3.4).
	 */
	REMOTE_WRITE

}
