package io.rpcrdma.verbs.siw.wire;

/**
 * The stream-level checks a DDP receiver makes on each parsed segment (RFC 5041 §5, §7), with
 * the per-queue state they need:
 * <ul>
 * <li>an untagged segment's queue must be the one RDMAP assigns to its opcode (RFC 5040 §5.1),
 * else "invalid QN";</li>
 * <li>its MSN must be the queue's next message, starting at 1 (RFC 5041 §5.3), and repeat on
 * every segment of the message, else "invalid MSN range";</li>
 * <li>its MO must be 0 on a message's first segment and where the previous segment ended
 * afterwards, else "invalid MO";</li>
 * <li>a tagged message's later segments must keep its STag and continue its tagged offset
 * (as Linux siw checks), else "invalid STag" or "base or bounds violation", and no segment may
 * run past offset 2^64, else "TO wrap".</li>
 * </ul>
 * TCP delivers in order, so any other value is a peer error. Messages on different queues, and
 * a tagged message with untagged ones, may interleave; two messages on the same queue may not.
 * Whether a receive buffer is posted ("no buffer available") or big enough ("message too
 * long") is the provider's to judge. Allocation-free; not thread-safe.
 */
public final class DdpReceiveValidator {

	private static final int QUEUES = 3;

	private final int[] expectedMsn = new int[QUEUES];

	private final int[] nextMessageOffset = new int[QUEUES];

	private final RdmapOpcode[] inProgress = new RdmapOpcode[QUEUES];

	private RdmapOpcode taggedInProgress;

	private int taggedStag;

	private long taggedNextOffset;

	public DdpReceiveValidator() {
		for (int i = 0; i < QUEUES; i++) {
			this.expectedMsn[i] = 1;
		}
	}

	/**
	 * Checks a segment and, when it passes, records it.
	 * @param fpdu a segment from {@link FpduParser}
	 * @throws IwarpWireException when the segment breaks a rule above
	 */
	public void validate(Fpdu fpdu) {
		if (fpdu.tagged()) {
			validateTagged(fpdu);
		}
		else {
			validateUntagged(fpdu);
		}
	}

	/**
	 * @param queueNumber 0, 1 or 2
	 * @return the MSN the queue's next new message must carry
	 */
	public int expectedMsn(int queueNumber) {
		return this.expectedMsn[queueNumber];
	}

	/**
	 * @return whether a message has begun (a segment without L arrived) and not ended, on any
	 * queue or tagged: the stream owes its next segment
	 */
	public boolean inMessage() {
		return this.taggedInProgress != null || this.inProgress[0] != null || this.inProgress[1] != null
				|| this.inProgress[2] != null;
	}

	private void validateUntagged(Fpdu fpdu) {
		RdmapOpcode opcode = fpdu.opcode();
		int queue = fpdu.queueNumber();
		if (queue != opcode.queueNumber()) {
			throw new DdpQueueNumberException(queue, opcode);
		}
		if (fpdu.msn() != this.expectedMsn[queue]) {
			throw new DdpMsnException(queue, fpdu.msn(), this.expectedMsn[queue]);
		}
		RdmapOpcode current = this.inProgress[queue];
		if (current != null && current != opcode) {
			throw new RdmapHeaderException(TerminateError.RDMAP_UNEXPECTED_OPCODE, "message "
					+ Integer.toUnsignedString(fpdu.msn()) + " on DDP queue " + queue + " began as " + current
					+ " but continues as " + opcode);
		}
		int expectedOffset = current == null ? 0 : this.nextMessageOffset[queue];
		if (fpdu.messageOffset() != expectedOffset) {
			throw new DdpMessageOffsetException(queue, fpdu.msn(), fpdu.messageOffset(), expectedOffset);
		}
		long end = Integer.toUnsignedLong(fpdu.messageOffset()) + fpdu.payloadLength();
		if (end > 0xFFFF_FFFFL && !fpdu.last()) {
			throw new DdpHeaderException(TerminateError.DDP_UNTAGGED_MESSAGE_TOO_LONG, "message "
					+ Integer.toUnsignedString(fpdu.msn()) + " on DDP queue " + queue
					+ " continues past the 32-bit message offset range");
		}
		if (fpdu.last()) {
			this.inProgress[queue] = null;
			this.expectedMsn[queue]++;
		}
		else {
			this.inProgress[queue] = opcode;
			this.nextMessageOffset[queue] = (int) end;
		}
	}

	private void validateTagged(Fpdu fpdu) {
		validateTagged(fpdu.opcode(), fpdu.stag(), fpdu.taggedOffset(), fpdu.payloadLength(), fpdu.last());
	}

	/**
	 * Checks and records a tagged segment known only by its header fields: for a receiver
	 * that places a segment's payload straight from the socket instead of parsing the whole
	 * FPDU first.
	 * @param opcode RDMA Write or Read Response
	 * @param stag the segment's STag
	 * @param offset its tagged offset
	 * @param length its payload length
	 * @param last its L flag
	 * @throws IwarpWireException when the segment breaks a rule of {@link DdpReceiveValidator}
	 */
	public void validateTagged(RdmapOpcode opcode, int stag, long offset, int length, boolean last) {
		if (this.taggedInProgress != null) {
			if (opcode != this.taggedInProgress) {
				throw new RdmapHeaderException(TerminateError.RDMAP_UNEXPECTED_OPCODE,
						"a tagged " + this.taggedInProgress + " message is interrupted by a tagged " + opcode + " segment");
			}
			if (stag != this.taggedStag) {
				throw new DdpTaggedBufferException(TerminateError.DDP_TAGGED_INVALID_STAG, String.format(
						"segment of a tagged %s changes STag from 0x%08x to 0x%08x", opcode, this.taggedStag, stag));
			}
			if (offset != this.taggedNextOffset) {
				throw new DdpTaggedBufferException(TerminateError.DDP_TAGGED_BASE_OR_BOUNDS_VIOLATION, String.format(
						"segment of a tagged %s starts at TO 0x%x but the previous one ended at 0x%x", opcode, offset,
						this.taggedNextOffset));
			}
		}
		// The segment's last byte is at offset + length - 1, which must not pass 2^64 - 1.
		if (length > 0 && Long.compareUnsigned(offset, -(long) length) > 0) {
			throw new DdpTaggedBufferException(TerminateError.DDP_TAGGED_TO_WRAP, String.format(
					"tagged %s of %d bytes at TO 0x%x wraps past 2^64 (RFC 5041 §7)", opcode, length, offset));
		}
		if (last) {
			this.taggedInProgress = null;
		}
		else {
			this.taggedInProgress = opcode;
			this.taggedStag = stag;
			this.taggedNextOffset = offset + length;
		}
	}

}
