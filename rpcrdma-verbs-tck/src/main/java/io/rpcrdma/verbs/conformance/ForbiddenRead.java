package io.rpcrdma.verbs.conformance;

import static io.rpcrdma.verbs.AccessFlag.LOCAL_WRITE;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_READ;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_WRITE;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Locale;
import java.util.function.Consumer;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.RemoteAddress;

/**
 * The ways an RDMA Read can overstep what its target advertised, each of which the target
 * refuses with a remote protection error (RFC 5040 §7.2): the kit's
 * {@code aForbiddenRdmaReadIsARemoteAccessErrorAndReadsNothing} runs every one.
 */
enum ForbiddenRead {

	/** An STag the target never advertised. */
	GUESSED_STAG(4096) {
		@Override
		RemoteAddress advertise(Endpoint target) {
			MemoryRegion source = source(target, REMOTE_READ);
			return new RemoteAddress(source.address(), ProviderConformanceKit.unusedStag(source));
		}
	},

	/** One byte before the region's first. */
	BEFORE_THE_START_OF_THE_REGION(64) {
		@Override
		RemoteAddress advertise(Endpoint target) {
			MemoryRegion source = source(target, REMOTE_READ);
			return new RemoteAddress(source.address() - 1, source.stag());
		}
	},

	/** A region registered for remote writes only. */
	WITHOUT_REMOTE_READ_ACCESS(64) {
		@Override
		RemoteAddress advertise(Endpoint target) {
			return source(target, LOCAL_WRITE, REMOTE_WRITE).remoteAddress(0);
		}
	},

	/** A region the target invalidated after advertising it. */
	LOCALLY_INVALIDATED_STAG(64) {
		@Override
		RemoteAddress advertise(Endpoint target) {
			return advertisedThen(target, MemoryRegion::invalidate);
		}
	},

	/** A region the target deregistered after advertising it. */
	DEREGISTERED_STAG(64) {
		@Override
		RemoteAddress advertise(Endpoint target) {
			return advertisedThen(target, MemoryRegion::deregister);
		}
	},

	/** A region of another protection domain than the connection's queue pair's. */
	STAG_OF_ANOTHER_PROTECTION_DOMAIN(64) {
		@Override
		RemoteAddress advertise(Endpoint target) {
			ProtectionDomain other = target.provider.allocateProtectionDomain();
			return other.registerMemory(ByteBuffer.allocateDirect(4096), EnumSet.of(REMOTE_READ)).remoteAddress(0);
		}
	};

	private final int length;

	ForbiddenRead(int length) {
		this.length = length;
	}

	/**
	 * Registers what the target advertises and spoils the advertisement as this case says.
	 * @param target the side the read is aimed at
	 * @return the address the initiator reads from
	 */
	abstract RemoteAddress advertise(Endpoint target);

	/** @return the bytes the read asks for */
	int length() {
		return this.length;
	}

	private static MemoryRegion source(Endpoint target, AccessFlag... access) {
		return target.registerPattern(4096, 1, access);
	}

	/** Advertises a readable region, then does to it what makes the advertisement stale. */
	private static RemoteAddress advertisedThen(Endpoint target, Consumer<MemoryRegion> afterwards) {
		MemoryRegion source = source(target, REMOTE_READ);
		RemoteAddress advertised = source.remoteAddress(0);
		afterwards.accept(source);
		return advertised;
	}

	@Override
	public String toString() {
		return name().toLowerCase(Locale.ROOT).replace('_', ' ');
	}

}
