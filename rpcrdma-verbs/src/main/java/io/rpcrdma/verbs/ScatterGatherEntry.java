package io.rpcrdma.verbs;

import java.util.Objects;

/**
 * One element of a work request's scatter/gather list (verbs {@code ibv_sge}): a range of
 * a registered local region. Its bounds, validity and access rights are checked when the
 * adapter executes the work request; a violation completes the work request with
 * {@link CompletionStatus#LOC_PROT_ERR}.
 *
 * @param region the registered region (provides the lkey)
 * @param offset the offset of the first byte inside the region
 * @param length the number of bytes
 */
public record ScatterGatherEntry(MemoryRegion region, int offset, int length) {

	/**
	 * Validates the entry.
	 * @param region the registered region
	 * @param offset the offset of the first byte
	 * @param length the number of bytes
	 */
	public ScatterGatherEntry {
		Objects.requireNonNull(region, "A scatter/gather entry needs a registered MemoryRegion");
		if (offset < 0 || length < 0) {
			throw new IllegalArgumentException(
					"A scatter/gather entry needs a non-negative offset and length, got offset " + offset + ", length " + length);
		}
	}

	/**
	 * An entry covering a whole region.
	 * @param region the region
	 * @return the entry
	 */
	public static ScatterGatherEntry of(MemoryRegion region) {
		return new ScatterGatherEntry(region, 0, region.length());
	}

	/**
	 * An entry for part of a region.
	 * @param region the region
	 * @param offset the offset of the first byte
	 * @param length the number of bytes
	 * @return the entry
	 */
	public static ScatterGatherEntry of(MemoryRegion region, int offset, int length) {
		return new ScatterGatherEntry(region, offset, length);
	}

	/**
	 * The local key of the region, as verbs would carry it in the SGE.
	 * @return the lkey
	 */
	public int lkey() {
		return this.region.lkey();
	}

}
