package io.rpcrdma.protocol.ccp;

/**
 * The CONF_RDMA result, RFC 5666 §6.2 {@code config_rdma_reply}. Note the field order and
 * contents differ from the request: the server returns its receive alignment where the client
 * sent its reply size. All fields are XDR {@code uint32}, held in {@code long}s.
 *
 * @param maxCallSendSize {@code maxcall_sendsize}: the largest inline call the server accepts,
 * which may be smaller or larger than the client asked; the client MUST NOT send larger
 * @param align {@code align}: the server's receive-buffer alignment, which the client MAY use to
 * pad opaque data in calls
 * @param maxRdmaRead {@code maxrdmaread}: the most RDMA Reads the server allows active at once
 */
public record ConfigRdmaReply(long maxCallSendSize, long align, long maxRdmaRead) {

	public ConfigRdmaReply {
		ConfigRdmaCodec.checkUnsigned("maxcall_sendsize", maxCallSendSize);
		ConfigRdmaCodec.checkUnsigned("align", align);
		ConfigRdmaCodec.checkUnsigned("maxrdmaread", maxRdmaRead);
	}

}
