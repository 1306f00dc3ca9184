package io.rpcrdma.verbs.soft;

import static io.rpcrdma.verbs.AccessFlag.LOCAL_WRITE;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_READ;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.RemoteAccessError;
import io.rpcrdma.verbs.RemoteAccessException;
import io.rpcrdma.verbs.ScatterGatherEntry;

class MemoryRegionTableTest {

	private final MemoryRegionTable table = new MemoryRegionTable();

	private final SoftwareProtectionDomain pd = new SoftwareProtectionDomain(null, this.table);

	private SoftwareMemoryRegion register(int length, AccessFlag... access) {
		EnumSet<AccessFlag> flags = EnumSet.noneOf(AccessFlag.class);
		flags.addAll(List.of(access));
		return this.table.register(this.pd, ByteBuffer.allocateDirect(length), flags);
	}

	private RemoteAccessError refusal(int stag, long address, int length, AccessFlag access) {
		return refusal(stag, address, length, access, this.pd, null);
	}

	private RemoteAccessError refusal(int stag, long address, int length, AccessFlag access,
			SoftwareProtectionDomain domain, Object qp) {
		try {
			this.table.checkRemoteAccess(stag, address, length, access, domain, qp);
			return null;
		}
		catch (RemoteAccessException ex) {
			assertThat(ex.stag()).isEqualTo(stag);
			assertThat(ex.getMessage()).isNotBlank();
			return ex.error();
		}
	}

	@Test
	void aRegisteredRegionIsFoundByItsStagAndAnUnknownStagIsNot() {
		SoftwareMemoryRegion region = register(4096, REMOTE_READ);
		assertThat(this.table.lookup(region.stag())).isSameAs(region);
		assertThat(this.table.lookup(region.stag() ^ 1)).isNull();
		assertThat(refusal(region.stag() ^ 1, region.address(), 1, REMOTE_READ)).isEqualTo(RemoteAccessError.INVALID_STAG);
	}

	@Test
	void exactlyTheRegionIsInBounds() {
		SoftwareMemoryRegion region = register(4096, REMOTE_READ);
		long base = region.address();
		assertThat(refusal(region.stag(), base, 4096, REMOTE_READ)).isNull();
		assertThat(refusal(region.stag(), base + 4095, 1, REMOTE_READ)).isNull();
		assertThat(refusal(region.stag(), base + 4096, 0, REMOTE_READ)).isNull();
		assertThat(refusal(region.stag(), base, 4097, REMOTE_READ)).isEqualTo(RemoteAccessError.BASE_OR_BOUNDS);
		assertThat(refusal(region.stag(), base + 4096, 1, REMOTE_READ)).isEqualTo(RemoteAccessError.BASE_OR_BOUNDS);
		assertThat(refusal(region.stag(), base - 1, 1, REMOTE_READ)).isEqualTo(RemoteAccessError.BASE_OR_BOUNDS);
		assertThat(refusal(region.stag(), base, -1, REMOTE_READ)).isEqualTo(RemoteAccessError.BASE_OR_BOUNDS);
		assertThat(refusal(region.stag(), base + 1, Integer.MAX_VALUE, REMOTE_READ))
			.isEqualTo(RemoteAccessError.BASE_OR_BOUNDS);
	}

	@Test
	void aTaggedOffsetThatWrapsIsClassifiedAsWrap() {
		SoftwareMemoryRegion region = register(64, REMOTE_WRITE, LOCAL_WRITE);
		assertThat(refusal(region.stag(), -16L, 64, REMOTE_WRITE)).isEqualTo(RemoteAccessError.TO_WRAP);
		assertThat(refusal(region.stag(), Long.MAX_VALUE, 64, REMOTE_WRITE)).isEqualTo(RemoteAccessError.BASE_OR_BOUNDS);
		assertThat(refusal(region.stag(), Long.MIN_VALUE, 64, REMOTE_WRITE)).isEqualTo(RemoteAccessError.BASE_OR_BOUNDS);
	}

	@Property(tries = 2000)
	void theBoundsCheckAgreesWithExactArithmetic(@ForAll long addressDelta, @ForAll int length,
			@ForAll @IntRange(min = 1, max = 1 << 16) int regionLength, @ForAll boolean nearBase) {
		SoftwareMemoryRegion region = register(regionLength, REMOTE_READ);
		try {
			long address = nearBase ? region.address() + (addressDelta % (2L * regionLength)) : addressDelta;
			BigInteger start = new BigInteger(Long.toUnsignedString(address));
			BigInteger base = BigInteger.valueOf(region.address());
			boolean inside = length >= 0 && start.compareTo(base) >= 0
					&& start.add(BigInteger.valueOf(length)).compareTo(base.add(BigInteger.valueOf(regionLength))) <= 0;
			assertThat(region.containsRange(address, length)).isEqualTo(inside);
			RemoteAccessError error = refusal(region.stag(), address, length, REMOTE_READ);
			if (inside) {
				assertThat(error).isNull();
			}
			else {
				assertThat(error).isIn(RemoteAccessError.BASE_OR_BOUNDS, RemoteAccessError.TO_WRAP);
			}
		}
		finally {
			region.deregister();
		}
	}

	@Test
	void stagsAreUniqueAndEveryBitIsRandom() {
		int count = 4000;
		Set<Integer> stags = new HashSet<>();
		int[] ones = new int[32];
		Set<Integer> lowBytes = new HashSet<>();
		for (int i = 0; i < count; i++) {
			int stag = register(16, REMOTE_READ).stag();
			assertThat(stags.add(stag)).isTrue();
			assertThat(stag).isNotIn(0, -1);
			lowBytes.add(stag & 0xff);
			for (int bit = 0; bit < 32; bit++) {
				ones[bit] += (stag >>> bit) & 1;
			}
		}
		// Each bit is set in about half of the STags (binomial, sigma ~ 32 for 4000 draws).
		for (int bit = 0; bit < 32; bit++) {
			assertThat(ones[bit]).as("bit %d", bit).isBetween(count / 2 - 300, count / 2 + 300);
		}
		assertThat(lowBytes).hasSizeGreaterThan(240);
		assertThat(this.table.size()).isEqualTo(count);
	}

	@Test
	void reregistrationRotatesTheStagAndTheOldOneBecomesInvalid() {
		SoftwareMemoryRegion region = register(64, REMOTE_READ);
		Set<Integer> seen = new HashSet<>();
		seen.add(region.stag());
		for (int i = 0; i < 100; i++) {
			int old = region.stag();
			region.invalidate();
			assertThat(refusal(old, region.address(), 1, REMOTE_READ)).isEqualTo(RemoteAccessError.STAG_INVALIDATED);
			int fresh = region.reregister();
			assertThat(seen.add(fresh)).as("a new STag every time").isTrue();
			assertThat(refusal(old, region.address(), 1, REMOTE_READ)).isEqualTo(RemoteAccessError.INVALID_STAG);
			assertThat(refusal(fresh, region.address(), 1, REMOTE_READ)).isNull();
			assertThat(this.table.lookup(fresh)).isSameAs(region);
		}
		assertThat(this.table.size()).isEqualTo(1);
	}

	@Test
	void aDeregisteredStagIsInvalidAndTheRegionCannotComeBack() {
		SoftwareMemoryRegion region = register(64, REMOTE_READ);
		int stag = region.stag();
		region.deregister();
		region.deregister();
		assertThat(refusal(stag, region.address(), 1, REMOTE_READ)).isEqualTo(RemoteAccessError.INVALID_STAG);
		assertThat(region.isRegistered()).isFalse();
		assertThatIllegalStateException().isThrownBy(region::reregister);
		assertThatIllegalStateException().isThrownBy(region::invalidate);
		assertThat(this.table.size()).isZero();
	}

	@Test
	void missingRightsAreReportedOnlyToTheConnectionTheRegionIsOfferedTo() {
		SoftwareMemoryRegion readable = register(64, REMOTE_READ);
		assertThat(refusal(readable.stag(), readable.address(), 1, REMOTE_WRITE)).isEqualTo(RemoteAccessError.ACCESS_RIGHTS);
		Object qp = new Object();
		readable.offerToConnection(qp);
		assertThat(refusal(readable.stag(), readable.address(), 1, REMOTE_READ, this.pd, qp)).isNull();
		assertThat(refusal(readable.stag(), readable.address(), 1, REMOTE_WRITE, this.pd, qp))
			.isEqualTo(RemoteAccessError.ACCESS_RIGHTS);
		assertThat(refusal(readable.stag(), readable.address(), 1, REMOTE_WRITE, this.pd, new Object()))
			.as("not yours: no hint that the region exists, nor which rights it has")
			.isEqualTo(RemoteAccessError.INVALID_STAG);
	}

	@Test
	void notYoursLooksExactlyLikeDoesNotExist() {
		SoftwareMemoryRegion offered = register(64, REMOTE_READ, REMOTE_WRITE, LOCAL_WRITE);
		Object owner = new Object();
		offered.offerToConnection(owner);
		SoftwareMemoryRegion local = register(64, LOCAL_WRITE);
		SoftwareProtectionDomain other = new SoftwareProtectionDomain(null, this.table);
		int missing = offered.stag() ^ 0x00010000;
		RemoteAccessException absent = refusalException(missing, offered.address(), 8, REMOTE_READ, this.pd, owner);
		List<RemoteAccessException> notYours = List.of(
				refusalException(offered.stag(), offered.address(), 8, REMOTE_READ, this.pd, new Object()),
				refusalException(offered.stag(), offered.address(), 8, REMOTE_WRITE, other, owner),
				refusalException(local.stag(), local.address(), 8, REMOTE_WRITE, this.pd, owner),
				refusalException(local.stag(), local.address(), 8, REMOTE_READ, this.pd, null));
		for (RemoteAccessException refusal : notYours) {
			assertThat(refusal.error()).isEqualTo(absent.error()).isEqualTo(RemoteAccessError.INVALID_STAG);
			assertThat(refusal.getMessage().replace(MemoryRegionTable.hex(refusal.stag()), "X"))
				.isEqualTo(absent.getMessage().replace(MemoryRegionTable.hex(missing), "X"));
		}
	}

	@Test
	void localOnlyMemoryCannotBeInvalidatedRemotely() {
		// A Read sink or receive buffer: registered with LOCAL_WRITE only, its STag is its lkey
		// and travels in Read Requests (RFC 5040 §4.4), so a peer can learn it.
		SoftwareMemoryRegion sink = register(64, LOCAL_WRITE);
		assertThatExceptionOfType(RemoteAccessException.class)
			.isThrownBy(() -> this.table.invalidateRemotely(sink.stag(), this.pd, new Object()))
			.satisfies((ex) -> assertThat(ex.error()).isEqualTo(RemoteAccessError.INVALID_STAG));
		assertThat(sink.isValid()).isTrue();
		assertThat(this.table.checkLocalAccess(sink, 0, 64, true, this.pd)).isNull();
	}

	@Test
	void aNewStagReachesNobodyUntilOfferedAgain() {
		SoftwareMemoryRegion region = register(64, REMOTE_READ);
		Object first = new Object();
		Object second = new Object();
		region.offerToConnection(first);
		int fresh = region.reregister();
		assertThat(refusal(fresh, region.address(), 1, REMOTE_READ, this.pd, first)).isEqualTo(RemoteAccessError.INVALID_STAG);
		assertThat(refusal(fresh, region.address(), 1, REMOTE_READ, this.pd, second)).isEqualTo(RemoteAccessError.INVALID_STAG);
		region.offerToConnection(second);
		assertThat(refusal(fresh, region.address(), 1, REMOTE_READ, this.pd, second)).isNull();
		assertThat(refusal(fresh, region.address(), 1, REMOTE_READ, this.pd, first)).isEqualTo(RemoteAccessError.INVALID_STAG);
	}

	@Test
	void addressesAreRandomPagesNotASequence() {
		List<Long> addresses = new ArrayList<>();
		for (int i = 0; i < 64; i++) {
			SoftwareMemoryRegion region = register(4096, REMOTE_READ);
			assertThat(region.address() & 4095).isZero();
			assertThat(region.address()).isBetween(1L << 40, (1L << 62) - 1);
			addresses.add(region.address());
		}
		int ascendingSteps = 0;
		for (int i = 1; i < addresses.size(); i++) {
			if (addresses.get(i) > addresses.get(i - 1)) {
				ascendingSteps++;
			}
		}
		// Sequential allocation ascends 63 times in 63 steps; random addresses about half as often.
		assertThat(ascendingSteps).isBetween(10, 53);
		assertThat(new HashSet<>(addresses)).hasSize(addresses.size());
	}

	private RemoteAccessException refusalException(int stag, long address, int length, AccessFlag access,
			SoftwareProtectionDomain domain, Object qp) {
		try {
			this.table.checkRemoteAccess(stag, address, length, access, domain, qp);
		}
		catch (RemoteAccessException ex) {
			return ex;
		}
		throw new AssertionError("STag " + MemoryRegionTable.hex(stag) + " was not refused");
	}

	@Test
	void rdmapErrorCodesFollowRfc5040() {
		assertThat(RemoteAccessError.INVALID_STAG.rdmapErrorCode()).isEqualTo(0x00);
		assertThat(RemoteAccessError.BASE_OR_BOUNDS.rdmapErrorCode()).isEqualTo(0x01);
		assertThat(RemoteAccessError.ACCESS_RIGHTS.rdmapErrorCode()).isEqualTo(0x02);
		assertThat(RemoteAccessError.TO_WRAP.rdmapErrorCode()).isEqualTo(0x04);
		assertThat(RemoteAccessError.STAG_CANNOT_BE_INVALIDATED.rdmapErrorCode()).isEqualTo(0x09);
	}

	@Test
	void sendWithInvalidateChecksTheStagBeforeInvalidating() {
		SoftwareMemoryRegion region = register(64, REMOTE_READ);
		SoftwareProtectionDomain other = new SoftwareProtectionDomain(null, this.table);
		assertThatExceptionOfType(RemoteAccessException.class)
			.isThrownBy(() -> this.table.invalidateRemotely(region.stag(), other, null))
			.satisfies((ex) -> assertThat(ex.error()).isEqualTo(RemoteAccessError.INVALID_STAG));
		assertThat(region.isValid()).isTrue();
		assertThatExceptionOfType(RemoteAccessException.class)
			.isThrownBy(() -> this.table.invalidateRemotely(region.stag() ^ 0x100, this.pd, null))
			.satisfies((ex) -> assertThat(ex.error()).isEqualTo(RemoteAccessError.INVALID_STAG));
		Object owner = new Object();
		region.offerToConnection(owner);
		assertThatExceptionOfType(RemoteAccessException.class)
			.isThrownBy(() -> this.table.invalidateRemotely(region.stag(), this.pd, new Object()))
			.satisfies((ex) -> assertThat(ex.error()).isEqualTo(RemoteAccessError.INVALID_STAG));
		assertThat(region.isValid()).isTrue();
		assertThat(this.table.invalidateRemotely(region.stag(), this.pd, owner)).isSameAs(region);
		assertThat(region.isValid()).isFalse();
		assertThatExceptionOfType(RemoteAccessException.class)
			.isThrownBy(() -> this.table.invalidateRemotely(region.stag(), this.pd, owner))
			.satisfies((ex) -> assertThat(ex.error()).isEqualTo(RemoteAccessError.INVALID_STAG));
	}

	@Test
	void localAccessNeedsAValidRegionOfTheDomainInBoundsWithLocalWriteForWrites() {
		SoftwareMemoryRegion readOnly = register(64);
		SoftwareMemoryRegion writable = register(64, LOCAL_WRITE);
		assertThat(this.table.checkLocalAccess(readOnly, 0, 64, false, this.pd)).isNull();
		assertThat(this.table.checkLocalAccess(readOnly, 0, 64, true, this.pd)).contains("LOCAL_WRITE");
		assertThat(this.table.checkLocalAccess(writable, 0, 64, true, this.pd)).isNull();
		assertThat(this.table.checkLocalAccess(writable, 1, 64, true, this.pd)).contains("outside");
		assertThat(this.table.checkLocalAccess(writable, Integer.MAX_VALUE, 2, true, this.pd)).contains("outside");
		assertThat(this.table.checkLocalAccess(writable, 0, 64, true, new SoftwareProtectionDomain(null, this.table)))
			.contains("protection domain");
		assertThat(this.table.checkLocalAccess(List.of(ScatterGatherEntry.of(writable), ScatterGatherEntry.of(readOnly)),
				true, this.pd)).startsWith("Scatter/gather entry 1");
		writable.invalidate();
		assertThat(this.table.checkLocalAccess(writable, 0, 64, false, this.pd)).contains("invalidated");
		MemoryRegionTable otherDevice = new MemoryRegionTable();
		SoftwareMemoryRegion foreign = otherDevice.register(this.pd, ByteBuffer.allocateDirect(8), EnumSet.of(LOCAL_WRITE));
		assertThat(this.table.checkLocalAccess(foreign, 0, 8, true, this.pd)).contains("not registered on this device");
	}

	@Test
	void registrationRefusesUnsuitableBuffersAndRights() {
		assertThatIllegalArgumentException().isThrownBy(() -> register(0, LOCAL_WRITE)).withMessageContaining("at least one byte");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.table.register(this.pd, ByteBuffer.allocate(8), EnumSet.of(LOCAL_WRITE)))
			.withMessageContaining("direct");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.table.register(this.pd, ByteBuffer.allocateDirect(8).asReadOnlyBuffer(),
					EnumSet.of(LOCAL_WRITE)))
			.withMessageContaining("read-only");
		SoftwareMemoryRegion readOnly = this.table.register(this.pd, ByteBuffer.allocateDirect(8).asReadOnlyBuffer(),
				EnumSet.of(REMOTE_READ));
		assertThat(readOnly.length()).isEqualTo(8);
	}

	@Test
	void theTableGrowsAndShrinksWithoutLosingRegions() {
		List<SoftwareMemoryRegion> regions = new ArrayList<>();
		for (int i = 0; i < 5000; i++) {
			regions.add(register(8, REMOTE_READ));
		}
		for (int i = 1; i < regions.size(); i += 2) {
			regions.get(i).deregister();
		}
		for (int round = 0; round < 3; round++) {
			for (int i = 0; i < regions.size(); i += 2) {
				regions.get(i).reregister();
			}
		}
		for (int i = 0; i < regions.size(); i++) {
			SoftwareMemoryRegion region = regions.get(i);
			assertThat(this.table.lookup(region.stag())).isSameAs((i % 2 == 0) ? region : null);
		}
		assertThat(this.table.size()).isEqualTo(2500);
		assertThat(this.table.regions()).hasSize(2500);
	}

	@Test
	void lookupsNeverMissALiveRegionWhileOthersChurn() throws InterruptedException {
		SoftwareMemoryRegion stable = register(64, REMOTE_READ);
		AtomicBoolean done = new AtomicBoolean();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		Thread reader = new Thread(() -> {
			try {
				while (!done.get()) {
					if (this.table.lookup(stable.stag()) != stable) {
						throw new AssertionError("lookup missed a live region");
					}
				}
			}
			catch (Throwable ex) {
				failure.set(ex);
			}
		});
		reader.start();
		List<SoftwareMemoryRegion> churn = new ArrayList<>();
		for (int i = 0; i < 20000; i++) {
			churn.add(register(8, REMOTE_READ));
			if (churn.size() > 100) {
				churn.remove(0).deregister();
			}
		}
		done.set(true);
		reader.join(10_000);
		assertThat(failure.get()).isNull();
	}

}
