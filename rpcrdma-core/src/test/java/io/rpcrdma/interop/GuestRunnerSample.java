package io.rpcrdma.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Tests for {@link GuestTestRunner} to run in the lab guest ({@link LabGuestJavaTest}): one
 * passes only there, one is aborted by an assumption, one is disabled. Its name does not end
 * in {@code Test}, so surefire leaves it out on the host.
 */
class GuestRunnerSample {

	static final String PROPERTY = "rpcrdma.lab.sample";

	@Test
	void seesTheGuestsSoftIwarpDeviceAndTheHostsProperty() {
		assertThat(Path.of("/sys/class/infiniband/siw0")).isDirectory();
		assertThat(System.getProperty(PROPERTY)).isEqualTo("from the host");
	}

	@Test
	void isAbortedByAnAssumption() {
		assumeTrue(false, "the sample's assumption does not hold");
	}

	@Test
	@Disabled("the sample's disabled test")
	void isDisabled() {
	}

	/**
	 * A test that fails on purpose. Its name does not end in {@code Test} either.
	 */
	static class Failing {

		@Test
		void failsOnPurpose() {
			assertThat(1 + 1).as("the sample's failing assertion").isEqualTo(3);
		}

	}

}
