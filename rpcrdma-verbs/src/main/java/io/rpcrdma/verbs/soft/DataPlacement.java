package io.rpcrdma.verbs.soft;

import java.nio.ByteBuffer;
import java.util.List;

import io.rpcrdma.verbs.ScatterGatherEntry;

/**
 * Moves bytes between scatter/gather lists and registered regions with one memory copy per
 * contiguous piece (absolute bulk {@link ByteBuffer#put(int, ByteBuffer, int, int)}, which
 * allocates nothing and ignores buffer positions). Callers check every entry and remote
 * range first (see {@link MemoryRegionTable}); these methods trust them.
 */
public final class DataPlacement {

	private DataPlacement() {
	}

	/**
	 * Gathers a scatter/gather list into a region (the data of a Send or an RDMA Write).
	 * @param source the local entries, already checked
	 * @param target the region
	 * @param targetOffset where in the region the first byte goes
	 */
	public static void gather(List<ScatterGatherEntry> source, SoftwareMemoryRegion target, int targetOffset) {
		ByteBuffer to = target.memory();
		int at = targetOffset;
		for (int i = 0; i < source.size(); i++) {
			ScatterGatherEntry sge = source.get(i);
			to.put(at, memory(sge), sge.offset(), sge.length());
			at += sge.length();
		}
	}

	/**
	 * Scatters bytes of a region into a scatter/gather list (the data of an RDMA Read).
	 * @param source the region
	 * @param sourceOffset where in the region the first byte is
	 * @param target the local entries, already checked, filled in order
	 */
	public static void scatter(SoftwareMemoryRegion source, int sourceOffset, List<ScatterGatherEntry> target) {
		ByteBuffer from = source.memory();
		int at = sourceOffset;
		for (int i = 0; i < target.size(); i++) {
			ScatterGatherEntry sge = target.get(i);
			memory(sge).put(sge.offset(), from, at, sge.length());
			at += sge.length();
		}
	}

	/**
	 * Copies the bytes of one scatter/gather list into another (a Send into a receive).
	 * @param source the sender's entries, already checked
	 * @param target the receiver's entries, already checked, with room for every source byte
	 */
	public static void copy(List<ScatterGatherEntry> source, List<ScatterGatherEntry> target) {
		int t = 0;
		int tUsed = 0;
		for (int s = 0; s < source.size(); s++) {
			ScatterGatherEntry from = source.get(s);
			ByteBuffer fromMemory = memory(from);
			int done = 0;
			while (done < from.length()) {
				ScatterGatherEntry to = target.get(t);
				int room = to.length() - tUsed;
				if (room == 0) {
					t++;
					tUsed = 0;
					continue;
				}
				int n = Math.min(room, from.length() - done);
				memory(to).put(to.offset() + tUsed, fromMemory, from.offset() + done, n);
				done += n;
				tUsed += n;
			}
		}
	}

	private static ByteBuffer memory(ScatterGatherEntry sge) {
		return ((SoftwareMemoryRegion) sge.region()).memory();
	}

}
