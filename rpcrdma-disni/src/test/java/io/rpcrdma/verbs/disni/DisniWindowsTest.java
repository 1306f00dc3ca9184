package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * When the disni provider offers advertised chunks through memory windows, decided without a
 * device (the lab runs the real ones: Soft-RoCE has windows, Linux's soft-iWARP has none).
 */
class DisniWindowsTest {

	@Test
	void aLibraryWithTheNativesOnADeviceThatAllocatesAWindowUsesWindowsAndScopesRegionsToTheirConnection() {
		AtomicInteger probes = new AtomicInteger();
		DisniWindows windows = DisniWindows.detect("rxe0", () -> WindowNatives.VERSION, probes::incrementAndGet);
		assertThat(windows.available()).isTrue();
		assertThat(probes).hasValue(1);
		assertThat(DisniProvider.CAPABILITIES.connectionScopedRegions()).isFalse();
		assertThat(windows.apply(DisniProvider.CAPABILITIES).connectionScopedRegions()).isTrue();
		// Nothing else changes: what the connection manager and the device do stays theirs.
		assertThat(windows.apply(DisniProvider.CAPABILITIES))
			.usingRecursiveComparison()
			.ignoringFields("connectionScopedRegions")
			.isEqualTo(DisniProvider.CAPABILITIES);
	}

	@Test
	void aDeviceThatRefusesWindowsKeepsRotationByRegistrationAndSaysWhy() {
		DisniWindows windows = DisniWindows.detect("siw0", () -> WindowNatives.VERSION, () -> {
			throw new IOException("libdisni ibv_alloc_mw: Operation not supported");
		});
		assertThat(windows.available()).isFalse();
		assertThat(windows.missing()).hasValueSatisfying((why) -> assertThat(why)
			.contains("offers no type 2 memory windows", "ibv_alloc_mw: Operation not supported"));
		assertThat(windows.apply(DisniProvider.IWARP_CAPABILITIES)).isEqualTo(DisniProvider.IWARP_CAPABILITIES);
	}

	@Test
	void aStockLibraryOrOneOfAnotherVersionIsNotProbed() {
		AtomicInteger probes = new AtomicInteger();
		DisniWindows stock = DisniWindows.detect("rxe0", () -> {
			throw new UnsatisfiedLinkError("'int io.rpcrdma.verbs.disni.WindowNatives.version()'");
		}, probes::incrementAndGet);
		assertThat(stock.missing()).hasValueSatisfying((why) -> assertThat(why)
			.contains("lacks rpcrdma's memory-window natives", "stock DiSNI", "rpcrdma-disni-native"));
		DisniWindows older = DisniWindows.detect("rxe0", () -> WindowNatives.VERSION + 1, probes::incrementAndGet);
		assertThat(older.missing()).hasValueSatisfying((why) -> assertThat(why).contains("rebuild rpcrdma-disni-native"));
		assertThat(probes).hasValue(0);
	}

	@Test
	void windowsCanBeSwitchedOff() {
		String previous = System.setProperty(DisniWindows.ENABLED_PROPERTY, "false");
		try {
			AtomicInteger probes = new AtomicInteger();
			DisniWindows windows = DisniWindows.detect("rxe0", () -> WindowNatives.VERSION, probes::incrementAndGet);
			assertThat(windows.missing()).hasValueSatisfying(
					(why) -> assertThat(why).contains("-Drpcrdma.disni.memory-windows=false"));
			assertThat(probes).hasValue(0);
		}
		finally {
			if (previous == null) {
				System.clearProperty(DisniWindows.ENABLED_PROPERTY);
			}
			else {
				System.setProperty(DisniWindows.ENABLED_PROPERTY, previous);
			}
		}
	}

}
