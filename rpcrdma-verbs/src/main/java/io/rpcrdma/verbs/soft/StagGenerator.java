package io.rpcrdma.verbs.soft;

import java.security.SecureRandom;

/**
 * Draws unguessable 32-bit steering tags from a {@link SecureRandom}, in batches so that
 * the cost of the generator is amortised over many registrations.
 * <p>
 * All 32 bits are random (the table that holds the regions is a hash table, so no index
 * bits are needed), which makes a guessed or stale STag hit a live region with
 * probability about (live regions) / 2^32 (RFC 5042 asks for STags that are hard
 * to guess). The values 0 and -1 are never produced.
 */
public final class StagGenerator {

	private static final int BATCH = 256;

	private final SecureRandom random;

	private final int[] batch = new int[BATCH];

	private final byte[] bytes = new byte[BATCH * 4];

	private int next = BATCH;

	/**
	 * Creates a generator seeded by the platform's default secure random source.
	 */
	public StagGenerator() {
		this(new SecureRandom());
	}

	/**
	 * Creates a generator on a given source (tests may pass a seeded one).
	 * @param random the randomness source
	 */
	public StagGenerator(SecureRandom random) {
		this.random = random;
	}

	/**
	 * The next random STag.
	 * @return a value other than 0 and -1
	 */
	public synchronized int nextStag() {
		while (true) {
			if (this.next == BATCH) {
				refill();
			}
			int stag = this.batch[this.next++];
			if (stag != 0 && stag != -1) {
				return stag;
			}
		}
	}

	private void refill() {
		this.random.nextBytes(this.bytes);
		for (int i = 0; i < BATCH; i++) {
			int b = i * 4;
			this.batch[i] = (this.bytes[b] & 0xff) << 24 | (this.bytes[b + 1] & 0xff) << 16
					| (this.bytes[b + 2] & 0xff) << 8 | (this.bytes[b + 3] & 0xff);
		}
		this.next = 0;
	}

}
