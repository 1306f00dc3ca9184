package io.rpcrdma.verbs.siw;

import io.rpcrdma.verbs.siw.wire.IwarpWireException;
import io.rpcrdma.verbs.siw.wire.TerminateError;

/**
 * The memory a tagged segment was being placed into stopped being the stream's while the
 * segment arrived: the STag of an RDMA Write's target was invalidated or re-registered (its
 * buffer was released, the call it was advertised for being over), a Read's sink was, or the
 * queue pair was flushed under a Read Response. Placement stops at once, so no byte of the
 * segment lands in memory that may already be someone else's (RFC 5041 §7: a tagged segment
 * whose STag is not valid is refused with "invalid STag"; RFC 8166 §8).
 */
final class SegmentTargetRetiredException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	private SegmentTargetRetiredException(String message) {
		super(TerminateError.DDP_TAGGED_INVALID_STAG, message);
	}

	/**
	 * @param stag the Write's STag
	 * @return the RDMA Write's target was retired
	 */
	static SegmentTargetRetiredException write(int stag) {
		return new SegmentTargetRetiredException(String.format("the STag 0x%08x of the RDMA Write being placed was"
				+ " retired before the segment's last byte arrived", stag));
	}

	/** @return the queue pair was flushed under a Read Response */
	static SegmentTargetRetiredException flushed() {
		return new SegmentTargetRetiredException("the queue pair was flushed while a Read Response was being placed");
	}

	/**
	 * @param stag the sink STag the Response names
	 * @return the Read's sink was invalidated or re-registered since its Read Request went out
	 */
	static SegmentTargetRetiredException sinkReleased(int stag) {
		return new SegmentTargetRetiredException(sinkReleasedDetail(stag));
	}

	/**
	 * @param stag the sink STag the Response names
	 * @return what {@link #sinkReleased(int)} says, for a Terminate sent without the exception
	 */
	static String sinkReleasedDetail(int stag) {
		return String.format("refused a Read Response for sink STag 0x%08x: the sink was invalidated or re-registered"
				+ " since the Read Request went out (its owner gave it back)", stag);
	}

}
