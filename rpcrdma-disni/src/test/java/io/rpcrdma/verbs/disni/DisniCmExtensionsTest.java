package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.ibm.disni.util.MemoryUtils;

import io.rpcrdma.verbs.PrivateData;

/**
 * Detection of rpcrdma's own connection-manager natives in libdisni, without a device. The
 * first tests run before any libdisni is loaded into this JVM, where the natives are as absent
 * as from a stock DiSNI library (the same UnsatisfiedLinkError); the last loads the library
 * rpcrdma-disni-native/build.sh built, when there is one, and finds them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DisniCmExtensionsTest {

	private static final Path BUILT_LIBRARY = Path.of("..", "rpcrdma-disni-native", "target", "libdisni.so");

	@Test
	@Order(1)
	void withoutTheNativesTheProviderKeepsDisnisBehaviourAndSaysWhatIsMissing() {
		DisniCmExtensions extensions = DisniCmExtensions.detect(CmNatives::version);
		assertThat(extensions.available()).isFalse();
		assertThat(extensions.missing()).hasValueSatisfying((why) -> assertThat(why)
			.contains("lacks rpcrdma's connection-manager natives", "CmNatives.version", "stock DiSNI",
					"rpcrdma-disni-native"));
		// Private data stays one-way and CCP negotiates in band, as before.
		assertThat(extensions.apply(DisniProvider.CAPABILITIES)).isEqualTo(DisniProvider.CAPABILITIES);
		assertThat(extensions.apply(DisniProvider.IWARP_CAPABILITIES)).isEqualTo(DisniProvider.IWARP_CAPABILITIES);
		assertThat(extensions.apply(DisniProvider.CAPABILITIES).privateDataExchange()).isFalse();
		assertThat(extensions.takePrivateData(null)).isEqualTo(PrivateData.EMPTY);
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> extensions.reject(null, PrivateData.EMPTY))
			.withMessageContaining("not available");
	}

	@Test
	@Order(2)
	void aLibraryWithNativesOfAnotherVersionIsNotUsed() {
		DisniCmExtensions extensions = DisniCmExtensions.detect(() -> CmNatives.VERSION + 1);
		assertThat(extensions.available()).isFalse();
		assertThat(extensions.missing()).hasValueSatisfying(
				(why) -> assertThat(why).contains("version 2, this provider needs 1", "rebuild rpcrdma-disni-native"));
		assertThat(extensions.apply(DisniProvider.CAPABILITIES)).isEqualTo(DisniProvider.CAPABILITIES);
	}

	@Test
	@Order(3)
	void withTheNativesPrivateDataTravelsAllThreeWays() {
		DisniCmExtensions extensions = DisniCmExtensions.detect(() -> CmNatives.VERSION);
		assertThat(extensions.available()).isTrue();
		assertThat(extensions.apply(DisniProvider.CAPABILITIES).privateDataExchange()).isTrue();
		assertThat(extensions.apply(DisniProvider.CAPABILITIES).rejectPrivateDataVisible()).isTrue();
		// What the device does is not the connection manager's to change.
		assertThat(extensions.apply(DisniProvider.IWARP_CAPABILITIES).receiverNotReadyRetry()).isFalse();
		assertThat(extensions.apply(DisniProvider.CAPABILITIES).receiverNotReadyRetry()).isTrue();
	}

	@Test
	@Order(4)
	void theProjectsLibraryHasTheNatives() throws Exception {
		assumeThat(Files.isRegularFile(BUILT_LIBRARY)).as("rpcrdma-disni-native/build.sh has run").isTrue();
		System.load(BUILT_LIBRARY.toAbsolutePath().normalize().toString());
		DisniCmExtensions extensions = DisniCmExtensions.detect(CmNatives::version);
		assertThat(extensions.available()).isTrue();
		ByteBuffer out = ByteBuffer.allocateDirect(255);
		// No event was kept for this id: nothing to take.
		assertThat(CmNatives.takePrivateData(0x1000, MemoryUtils.getAddress(out), 255)).isZero();
		assertThatIOException().isThrownBy(() -> CmNatives.reject(0, 0, 0)).withMessage("libdisni rdma_reject: no id");
		assertThatIOException().isThrownBy(() -> CmNatives.accept(0, 7, 7, 0, 0))
			.withMessage("libdisni rdma_accept: no id");
		assertThatIOException().isThrownBy(() -> CmNatives.reject(0x1000, 0, 256))
			.withMessageContaining("longer than 255 bytes");
	}

	@Test
	@Order(5)
	void theProjectsLibraryHasTheMemoryWindowNativesAndTheyRefuseMissingObjects() throws Exception {
		assumeThat(Files.isRegularFile(BUILT_LIBRARY)).as("rpcrdma-disni-native/build.sh has run").isTrue();
		System.load(BUILT_LIBRARY.toAbsolutePath().normalize().toString());
		assertThat(WindowNatives.version()).isEqualTo(WindowNatives.VERSION);
		assertThatIOException().isThrownBy(() -> WindowNatives.allocate(0, 0))
			.withMessageStartingWith("libdisni ibv_alloc_mw: no protection domain");
		assertThatIOException().isThrownBy(() -> WindowNatives.bind(0, 1, 0, 0, 0, 0, 0, 0))
			.withMessageContaining("IBV_WR_BIND_MW");
		assertThatIOException().isThrownBy(() -> WindowNatives.invalidate(0, 1, 0))
			.withMessage("libdisni ibv_post_send(IBV_WR_LOCAL_INV): no queue pair");
		WindowNatives.deallocate(0); // nothing to give back
	}

}
