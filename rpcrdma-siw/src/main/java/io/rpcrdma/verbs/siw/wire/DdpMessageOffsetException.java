package io.rpcrdma.verbs.siw.wire;

/**
 * An untagged DDP segment's message offset is not where the message's previous segment ended
 * (RFC 5041 §5.3; the first segment has MO 0). RFC 5041 §7: invalid MO.
 */
public final class DdpMessageOffsetException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	private final int received;

	private final int expected;

	public DdpMessageOffsetException(int queueNumber, int msn, int received, int expected) {
		super(TerminateError.DDP_UNTAGGED_INVALID_MO, "DDP queue " + queueNumber + " message " + Integer.toUnsignedString(msn)
				+ " received MO " + Integer.toUnsignedString(received) + " but expected " + Integer.toUnsignedString(expected)
				+ "; a segment was lost, repeated or mis-sized by the peer");
		this.received = received;
		this.expected = expected;
	}

	/** @return the MO the peer sent */
	public int received() {
		return this.received;
	}

	/** @return the MO that was due */
	public int expected() {
		return this.expected;
	}

}
