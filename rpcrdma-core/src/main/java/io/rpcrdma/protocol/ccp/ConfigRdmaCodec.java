package io.rpcrdma.protocol.ccp;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * XDR codec for the Connection Configuration Protocol's argument and result (RFC 5666 §6.2),
 * exactly three {@code uint32}s each, in the RFC's field order. The RPC call and reply headers
 * around them (program {@link ConfigRdmaProgram#PROGRAM}, version 1, procedure CONF_RDMA) are
 * the ONC RPC layer's to write.
 */
public final class ConfigRdmaCodec {

	/** Both structures are three XDR words. */
	public static final int ENCODED_LENGTH = 12;

	private ConfigRdmaCodec() {
	}

	/** Writes {@code config_rdma_req}. */
	public static void encode(ConfigRdmaRequest request, XdrEncoder encoder) {
		encoder.writeUnsignedInt(request.maxCallSendSize());
		encoder.writeUnsignedInt(request.maxReplySendSize());
		encoder.writeUnsignedInt(request.maxRdmaRead());
	}

	/** Reads {@code config_rdma_req}. */
	public static ConfigRdmaRequest decodeRequest(XdrDecoder decoder) {
		long maxCallSendSize = decoder.readUnsignedInt();
		long maxReplySendSize = decoder.readUnsignedInt();
		long maxRdmaRead = decoder.readUnsignedInt();
		return new ConfigRdmaRequest(maxCallSendSize, maxReplySendSize, maxRdmaRead);
	}

	/** Writes {@code config_rdma_reply}. */
	public static void encode(ConfigRdmaReply reply, XdrEncoder encoder) {
		encoder.writeUnsignedInt(reply.maxCallSendSize());
		encoder.writeUnsignedInt(reply.align());
		encoder.writeUnsignedInt(reply.maxRdmaRead());
	}

	/** Reads {@code config_rdma_reply}. */
	public static ConfigRdmaReply decodeReply(XdrDecoder decoder) {
		long maxCallSendSize = decoder.readUnsignedInt();
		long align = decoder.readUnsignedInt();
		long maxRdmaRead = decoder.readUnsignedInt();
		return new ConfigRdmaReply(maxCallSendSize, align, maxRdmaRead);
	}

	static void checkUnsigned(String field, long value) {
		if (value < 0 || value > 0xFFFF_FFFFL) {
			throw new IllegalArgumentException(field + " is an XDR uint32 and cannot hold " + value);
		}
	}

}
