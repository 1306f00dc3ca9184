package io.rpcrdma.verbs;

/**
 * One completion (verbs {@code ibv_wc}), as a reusable mutable holder:
 * {@link CompletionQueue#poll(WorkCompletion[])} copies completions into holders the
 * caller owns, so polling allocates nothing. Not thread-safe; copy what you keep.
 */
public final class WorkCompletion {

	private long wrId;

	private CompletionOpcode opcode;

	private CompletionStatus status;

	private int byteLength;

	private int queuePairNumber;

	private boolean withInvalidate;

	private int invalidatedStag;

	private String detail;

	/**
	 * The caller's identifier from the work request.
	 * @return the wr_id
	 */
	public long wrId() {
		return this.wrId;
	}

	/**
	 * What completed.
	 * @return the opcode
	 */
	public CompletionOpcode opcode() {
		return this.opcode;
	}

	/**
	 * The outcome.
	 * @return the status
	 */
	public CompletionStatus status() {
		return this.status;
	}

	/**
	 * Whether the work request succeeded.
	 * @return {@code true} for {@link CompletionStatus#SUCCESS}
	 */
	public boolean isSuccess() {
		return this.status == CompletionStatus.SUCCESS;
	}

	/**
	 * The number of bytes transferred: received bytes for a receive, the message or
	 * transfer length for a send-queue operation. Undefined unless successful.
	 * @return the byte count
	 */
	public int byteLength() {
		return this.byteLength;
	}

	/**
	 * The number of the local queue pair the work request was posted to.
	 * @return the queue pair number
	 */
	public int queuePairNumber() {
		return this.queuePairNumber;
	}

	/**
	 * Whether this receive was a Send with Invalidate that invalidated one of the local
	 * STags (verbs {@code IBV_WC_WITH_INV}).
	 * @return {@code true} if {@link #invalidatedStag()} is meaningful
	 */
	public boolean withInvalidate() {
		return this.withInvalidate;
	}

	/**
	 * The local STag the peer invalidated with this Send (verbs {@code invalidated_rkey}).
	 * @return the STag, meaningful only if {@link #withInvalidate()}
	 */
	public int invalidatedStag() {
		return this.invalidatedStag;
	}

	/**
	 * For failed completions, what went wrong in words (the provider's vendor error);
	 * {@code null} on success.
	 * @return the detail, or {@code null}
	 */
	public String detail() {
		return this.detail;
	}

	/**
	 * Fills this holder; for providers.
	 * @param wrId the wr_id
	 * @param opcode the opcode
	 * @param status the status
	 * @param byteLength the byte count
	 * @param queuePairNumber the local queue pair number
	 * @param withInvalidate whether an STag was invalidated
	 * @param invalidatedStag the invalidated STag
	 * @param detail the error detail, or {@code null}
	 * @return this holder
	 */
	public WorkCompletion set(long wrId, CompletionOpcode opcode, CompletionStatus status, int byteLength,
			int queuePairNumber, boolean withInvalidate, int invalidatedStag, String detail) {
		this.wrId = wrId;
		this.opcode = opcode;
		this.status = status;
		this.byteLength = byteLength;
		this.queuePairNumber = queuePairNumber;
		this.withInvalidate = withInvalidate;
		this.invalidatedStag = invalidatedStag;
		this.detail = detail;
		return this;
	}

	/**
	 * Copies another holder into this one.
	 * @param other the source
	 * @return this holder
	 */
	public WorkCompletion copyFrom(WorkCompletion other) {
		return set(other.wrId, other.opcode, other.status, other.byteLength, other.queuePairNumber,
				other.withInvalidate, other.invalidatedStag, other.detail);
	}

	@Override
	public String toString() {
		return "WorkCompletion[wrId=" + this.wrId + ", opcode=" + this.opcode + ", status=" + this.status
				+ ", byteLength=" + this.byteLength + ", qp=" + this.queuePairNumber
				+ (this.withInvalidate ? ", invalidatedStag=0x" + Integer.toHexString(this.invalidatedStag) : "")
				+ (this.detail != null ? ", detail=" + this.detail : "") + "]";
	}

}
