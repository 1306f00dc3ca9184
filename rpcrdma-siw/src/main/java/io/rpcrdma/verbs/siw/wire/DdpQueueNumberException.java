package io.rpcrdma.verbs.siw.wire;

/**
 * An untagged DDP segment names a queue that does not exist or does not match its RDMAP
 * opcode (RFC 5040 §5.1: QN 0 Send, 1 Read Request, 2 Terminate). RFC 5041 §7: invalid QN.
 */
public final class DdpQueueNumberException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	private final int queueNumber;

	public DdpQueueNumberException(int queueNumber, RdmapOpcode opcode) {
		super(TerminateError.DDP_UNTAGGED_INVALID_QN, "untagged " + opcode + " segment on DDP queue " + Integer.toUnsignedString(queueNumber)
				+ "; RDMAP uses queue 0 for Sends, 1 for Read Requests and 2 for Terminate (RFC 5040 §5.1)");
		this.queueNumber = queueNumber;
	}

	/** @return the queue number the peer sent */
	public int queueNumber() {
		return this.queueNumber;
	}

}
