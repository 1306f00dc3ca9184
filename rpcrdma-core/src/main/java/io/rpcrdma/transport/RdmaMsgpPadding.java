package io.rpcrdma.transport;

import io.rpcrdma.protocol.HeaderDecodeResult;
import io.rpcrdma.protocol.RdmaMsgp;
import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.xdr.OpaquePadding;

/**
 * The padding an RFC 5666 RDMA_MSGP message carries (RFC 5666 §3.9, §4.2): with rdma_align
 * above XDR's four bytes, the sender padded large opaque items to that alignment in the
 * stream, and the receiver's decoder skips the pad bytes ({@link OpaquePadding}).
 */
final class RdmaMsgpPadding {

	private RdmaMsgpPadding() {
	}

	/**
	 * @param header a decoded transport header
	 * @param valid where its payload lies in the received message
	 * @return the padding to skip, or {@code null} if the message is not padded beyond XDR
	 */
	static OpaquePadding of(TransportHeader header, HeaderDecodeResult.Valid valid) {
		if (header instanceof RdmaMsgp msgp && Integer.compareUnsigned(msgp.align(), 4) > 0) {
			return new OpaquePadding(Integer.toUnsignedLong(msgp.align()), Integer.toUnsignedLong(msgp.threshold()),
					valid.payloadOffset());
		}
		return null;
	}

}
