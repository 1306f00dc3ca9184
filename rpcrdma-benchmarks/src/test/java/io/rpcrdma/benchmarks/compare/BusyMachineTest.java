package io.rpcrdma.benchmarks.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The busy-machine load runs one spinning thread per core while open and leaves none behind.
 */
class BusyMachineTest {

	@Test
	void itsThreadsSpinWhileOpenAndAreGoneAfterClosing() throws Exception {
		List<Thread> threads;
		try (BusyMachine busy = BusyMachine.start(2)) {
			threads = busy.threads();
			assertThat(threads).hasSize(2).allSatisfy((thread) -> assertThat(thread.isAlive()).isTrue());
		}
		assertThat(threads).allSatisfy((thread) -> assertThat(thread.isAlive()).isFalse());
	}

}
