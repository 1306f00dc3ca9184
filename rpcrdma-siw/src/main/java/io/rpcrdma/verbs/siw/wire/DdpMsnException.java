package io.rpcrdma.verbs.siw.wire;

/**
 * An untagged DDP segment carries a message sequence number other than the next one on its
 * queue (RFC 5041 §5.3: MSNs start at 1 and grow by one per message; TCP delivers in order, so
 * any other value is a peer error). RFC 5041 §7: invalid MSN, range not valid.
 */
public final class DdpMsnException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	private final int received;

	private final int expected;

	public DdpMsnException(int queueNumber, int received, int expected) {
		super(TerminateError.DDP_UNTAGGED_INVALID_MSN_RANGE, "DDP queue " + queueNumber + " received MSN "
				+ Integer.toUnsignedString(received) + " but expected " + Integer.toUnsignedString(expected)
				+ "; the peer skipped, repeated or reordered a message");
		this.received = received;
		this.expected = expected;
	}

	/** @return the MSN the peer sent */
	public int received() {
		return this.received;
	}

	/** @return the MSN that was due */
	public int expected() {
		return this.expected;
	}

}
