package io.rpcrdma.verbs.conformance;

import static io.rpcrdma.verbs.AccessFlag.LOCAL_WRITE;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_READ;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_WRITE;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.RemoteAddress;

/**
 * The ways an RDMA Write can overstep its target's region, each of which the target refuses
 * with a remote protection error (RFC 5040 §7.2) without placing a byte: the kit's
 * {@code aForbiddenRdmaWriteIsARemoteAccessErrorAndWritesNothing} runs every one against a
 * region of {@link #REGION} bytes inside a larger buffer.
 */
enum ForbiddenWrite {

	/** A write that starts inside the region and runs 64 bytes past its end. */
	PAST_THE_END_OF_THE_REGION(ForbiddenWrite.REGION, LOCAL_WRITE, REMOTE_WRITE) {
		@Override
		RemoteAddress address(MemoryRegion target) {
			return target.remoteAddress(64);
		}
	},

	/** A region registered for remote reads only. */
	WITHOUT_REMOTE_WRITE_ACCESS(64, LOCAL_WRITE, REMOTE_READ) {
		@Override
		RemoteAddress address(MemoryRegion target) {
			return target.remoteAddress(0);
		}
	},

	/** An address whose last byte wraps past the top of the address space. */
	AN_ADDRESS_THAT_WRAPS(64, LOCAL_WRITE, REMOTE_WRITE) {
		@Override
		RemoteAddress address(MemoryRegion target) {
			return new RemoteAddress(-16L, target.stag());
		}
	},

	/** The highest address, far above the region. */
	AN_ADDRESS_FAR_ABOVE(64, LOCAL_WRITE, REMOTE_WRITE) {
		@Override
		RemoteAddress address(MemoryRegion target) {
			return new RemoteAddress(Long.MAX_VALUE, target.stag());
		}
	},

	/** The lowest address, far below the region. */
	AN_ADDRESS_FAR_BELOW(64, LOCAL_WRITE, REMOTE_WRITE) {
		@Override
		RemoteAddress address(MemoryRegion target) {
			return new RemoteAddress(Long.MIN_VALUE, target.stag());
		}
	};

	/** The size of the target's region. */
	static final int REGION = 4096;

	private final int length;

	private final Set<AccessFlag> access;

	ForbiddenWrite(int length, AccessFlag first, AccessFlag... rest) {
		this.length = length;
		this.access = EnumSet.of(first, rest);
	}

	/**
	 * Where the write aims, given the target's region.
	 * @param target the region the target registered
	 * @return the address the initiator writes to
	 */
	abstract RemoteAddress address(MemoryRegion target);

	/** @return the bytes the write carries */
	int length() {
		return this.length;
	}

	/** @return the access the target registers its region with */
	Set<AccessFlag> access() {
		return EnumSet.copyOf(this.access);
	}

	@Override
	public String toString() {
		return name().toLowerCase(Locale.ROOT).replace('_', ' ');
	}

}
