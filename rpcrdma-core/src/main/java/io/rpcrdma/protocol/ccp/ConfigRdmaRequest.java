package io.rpcrdma.protocol.ccp;

/**
 * The CONF_RDMA argument, RFC 5666 §6.2 {@code config_rdma_req}. All three fields are XDR
 * {@code uint32}, held in {@code long}s so that every value the wire can carry is representable.
 *
 * @param maxCallSendSize {@code maxcall_sendsize}: the largest RPC call the client will send
 * inline; it does not limit calls sent as a Position-Zero Read chunk
 * @param maxReplySendSize {@code maxreply_sendsize}: the largest inline RPC reply the client
 * accepts
 * @param maxRdmaRead {@code maxrdmaread}: the most RDMA Reads the client allows active at once
 * (its IRD); zero means the peer must not rely on RDMA Read at all
 */
public record ConfigRdmaRequest(long maxCallSendSize, long maxReplySendSize, long maxRdmaRead) {

	public ConfigRdmaRequest {
		ConfigRdmaCodec.checkUnsigned("maxcall_sendsize", maxCallSendSize);
		ConfigRdmaCodec.checkUnsigned("maxreply_sendsize", maxReplySendSize);
		ConfigRdmaCodec.checkUnsigned("maxrdmaread", maxRdmaRead);
	}

}
