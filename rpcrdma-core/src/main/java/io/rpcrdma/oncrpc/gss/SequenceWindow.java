package io.rpcrdma.oncrpc.gss;

/**
 * The server's sequence window of one RPCSEC_GSS context (RFC 2203 §5.3.3.1): a call whose
 * sequence number is above the highest seen moves the window up; one inside the window is
 * accepted once; one below the window, or seen before, is a replay to be dropped without a
 * reply (§7.2.2: answering would tell an attacker which numbers were used).
 * <p>
 * Sequence numbers are unsigned and below {@link GssCredential#MAXSEQ}; the caller refuses
 * larger ones with RPCSEC_GSS_CTXPROBLEM before asking. Thread-safe.
 */
public final class SequenceWindow {

	/** What the window says of a sequence number. */
	public enum Verdict {

		/** First time seen, inside or above the window: run the call. */
		ACCEPTED,

		/** Seen before: drop it. */
		REPLAYED,

		/** Below the window, so possibly seen: drop it. */
		TOO_OLD

	}

	private final int size;

	private final long[] seen;

	/** The highest sequence number accepted, -1 before the first. */
	private long highest = -1;

	/**
	 * @param size how many sequence numbers the window spans, 1 to 65536 (the {@code seq_window}
	 * the server announces at context creation)
	 */
	public SequenceWindow(int size) {
		if (size < 1 || size > 65536) {
			throw new IllegalArgumentException("sequence window of " + size + " is not between 1 and 65536");
		}
		this.size = size;
		this.seen = new long[(size + 63) / 64];
	}

	/** @return the number of sequence numbers the window spans */
	public int size() {
		return this.size;
	}

	/**
	 * Judges one sequence number and records it when accepted.
	 * @param sequence below {@link GssCredential#MAXSEQ}
	 * @return the verdict
	 */
	public synchronized Verdict accept(int sequence) {
		long seq = Integer.toUnsignedLong(sequence);
		if (seq >= Integer.toUnsignedLong(GssCredential.MAXSEQ)) {
			throw new IllegalArgumentException("sequence number " + seq + " is at or above MAXSEQ");
		}
		if (seq > this.highest) {
			long advance = (this.highest < 0) ? this.size : seq - this.highest;
			for (long s = this.highest + 1; s <= seq && advance < this.size; s++) {
				clear(s);
			}
			if (advance >= this.size) {
				java.util.Arrays.fill(this.seen, 0);
			}
			this.highest = seq;
			set(seq);
			return Verdict.ACCEPTED;
		}
		if (this.highest - seq >= this.size) {
			return Verdict.TOO_OLD;
		}
		if (isSet(seq)) {
			return Verdict.REPLAYED;
		}
		set(seq);
		return Verdict.ACCEPTED;
	}

	private int slot(long seq) {
		return (int) (seq % this.size);
	}

	private void set(long seq) {
		int slot = slot(seq);
		this.seen[slot >>> 6] |= 1L << (slot & 63);
	}

	private void clear(long seq) {
		int slot = slot(seq);
		this.seen[slot >>> 6] &= ~(1L << (slot & 63));
	}

	private boolean isSet(long seq) {
		int slot = slot(seq);
		return (this.seen[slot >>> 6] & (1L << (slot & 63))) != 0;
	}

}
