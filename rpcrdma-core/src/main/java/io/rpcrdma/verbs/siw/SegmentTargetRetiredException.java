package io.rpcrdma.verbs.siw;

import io.rpcrdma.verbs.siw.wire.IwarpWireException;
import io.rpcrdma.verbs.siw.wire.TerminateError;

/**
 * The memory a tagged segment was being placed into stopped being the stream's while the
 * segment arrived: the STag of an RDMA Write's target was invalidated or re-registered (its
 * buffer was released, the call it was advertised for being over), or the queue pair was
 * flushed under a Read Response. Placement stops at once, so no byte of the segment lands in
 * memory that may already be someone else's (RFC 5041 §7, RFC 8166 §8).
 */
final class SegmentTargetRetiredException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	SegmentTargetRetiredException(boolean write) {
		super(TerminateError.DDP_TAGGED_INVALID_STAG, write
				? "the STag of the RDMA Write being placed was retired before the segment's last byte arrived"
				: "the queue pair was flushed while a Read Response was being placed");
	}

}
