package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rpcrdma.verbs.ProviderUnavailableException;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviderFactory;
import io.rpcrdma.verbs.RdmaProviders;

class DisniDetectionTest {

	@Test
	void aMachineWithEverythingIsAvailable() {
		DisniDetection detection = DisniDetection.detect(FakeEnvironment.complete());
		assertThat(detection.isAvailable()).isTrue();
		assertThat(detection.missing()).isEmpty();
		assertThat(detection.devices()).containsExactly("mlx5_0");
		assertThat(detection.summary()).isEqualTo("available");
	}

	@Test
	void aBareMachineGetsOneMessageListingEveryMissingPieceWithItsRemedy() {
		DisniDetection detection = DisniDetection.detect(FakeEnvironment.bare());
		assertThat(detection.isAvailable()).isFalse();
		assertThat(detection.missingRequirements()).isEqualTo(EnumSet.allOf(DisniRequirement.class));
		String message = detection.summary();
		assertThat(message).startsWith("DiSNI cannot run here, 5 of 5 requirements missing: (1) ")
			.endsWith("see docs/hardware.md")
			.doesNotContain("\n");
		assertThat(message).contains("(1) the DiSNI jar (com.ibm.disni:disni:2.1) on the class path",
				"class com.ibm.disni.verbs.RdmaProvider is not on the class path",
				"depend on io.rpcrdma:rpcrdma-disni, which brings com.ibm.disni:disni:2.1, without excluding DiSNI");
		assertThat(message).contains("(2) rdma-core's libibverbs.so.1 and librdmacm.so.1",
				"not found: libibverbs.so.1, librdmacm.so.1",
				"apt-get install rdma-core ibverbs-providers libibverbs-dev librdmacm-dev");
		assertThat(message).contains("(3) the libdisni JNI library (libdisni.so) on java.library.path",
				"no disni in java.library.path: /usr/java/packages/lib:/usr/lib64]", "rpcrdma-disni-native/build.sh",
				"-Djava.library.path=<its directory>");
		assertThat(message).contains("(4) an RDMA device under /sys/class/infiniband",
				"/sys/class/infiniband is missing or empty", "rdma link add rxe0 type rxe netdev eth0");
		assertThat(message).contains("(5) the JVM flag --add-exports java.base/sun.nio.ch=ALL-UNNAMED",
				"sun.nio.ch.DirectBuffer");
	}

	@ParameterizedTest
	@EnumSource(DisniRequirement.class)
	void eachMissingPieceAloneIsNamedWithItsRemedyAndNothingElse(DisniRequirement requirement) {
		DisniDetection detection = DisniDetection.detect(FakeEnvironment.without(requirement));
		assertThat(detection.isAvailable()).isFalse();
		assertThat(detection.missingRequirements()).containsExactly(requirement);
		String message = detection.summary();
		assertThat(message).startsWith("DiSNI cannot run here, 1 of 5 requirements missing: (1) "
				+ requirement.description());
		assertThat(message).contains(requirement.remedy());
		for (DisniRequirement other : DisniRequirement.values()) {
			if (other != requirement) {
				assertThat(message).doesNotContain(other.description());
			}
		}
	}

	@Test
	void onlyTheMissingRdmaCoreLibraryIsNamed() {
		DisniEnvironment withoutRdmaCm = new DelegatingEnvironment(FakeEnvironment.complete()) {
			@Override
			public Optional<Path> findSharedLibrary(String fileName) {
				return fileName.startsWith("librdmacm") ? Optional.empty() : super.findSharedLibrary(fileName);
			}
		};
		DisniDetection detection = DisniDetection.detect(withoutRdmaCm);
		assertThat(detection.missing()).singleElement()
			.satisfies((missing) -> assertThat(missing.detail()).isEqualTo("not found: librdmacm.so.1"));
	}

	@Test
	void theFactoryReportsDetectionAndRefusesToStartWithTheSameMessage() {
		DisniProviderFactory factory = new DisniProviderFactory(
				FakeEnvironment.without(DisniRequirement.LIBDISNI, DisniRequirement.RDMA_DEVICE));
		assertThat(factory.name()).isEqualTo("disni");
		assertThat(factory.autoPriority()).isGreaterThan(200);
		assertThat(factory.isAvailable()).isFalse();
		assertThat(factory.unavailableReason()).contains("2 of 5 requirements missing", "libdisni",
				"/sys/class/infiniband");
		assertThatExceptionOfType(ProviderUnavailableException.class)
			.isThrownBy(() -> factory.create(RdmaProviderConfig.defaults()))
			.withMessageStartingWith("RDMA provider 'disni' cannot start: DiSNI cannot run here")
			.withMessageContaining("libdisni")
			.withMessageContaining("rdma link add");
	}

	@Test
	void theFactoryIsDiscoveredAndAutoChoosesItOnlyWhenDetectionSaysAvailable() {
		RdmaProviderFactory discovered = RdmaProviders.factories().get("disni");
		assertThat(discovered).isInstanceOf(DisniProviderFactory.class);
		boolean available = ((DisniProviderFactory) discovered).detection().isAvailable();
		assertThat(RdmaProviders.resolve("auto").name().equals("disni")).isEqualTo(available);
		if (!available) {
			assertThatExceptionOfType(ProviderUnavailableException.class).isThrownBy(() -> RdmaProviders.open("disni"))
				.withMessageContaining("RDMA provider 'disni' is not available here: DiSNI cannot run here")
				.withMessageContaining("see docs/hardware.md");
			assertThat(RdmaProviders.describe()).contains("disni: unavailable (DiSNI cannot run here");
		}
	}

	@Test
	void theProviderDeclaresWhatDisniCannotDo() {
		assertThat(DisniProvider.CAPABILITIES.requestPrivateDataVisible()).isFalse();
		assertThat(DisniProvider.CAPABILITIES.acceptPrivateDataVisible()).isFalse();
		assertThat(DisniProvider.CAPABILITIES.rejectPrivateDataVisible()).isFalse();
		assertThat(DisniProvider.CAPABILITIES.remoteInvalidation()).isFalse();
		assertThat(DisniProvider.CAPABILITIES.privateDataExchange()).isFalse();
		// InfiniBand and RoCE acknowledge every message: RNR retry, errors at the initiator.
		assertThat(DisniProvider.CAPABILITIES.receiverNotReadyRetry()).isTrue();
		assertThat(DisniProvider.CAPABILITIES.remoteErrorsAtInitiator()).isTrue();
		// iWARP does neither (RFC 5040, RFC 5041); everything else is the same.
		assertThat(DisniProvider.IWARP_CAPABILITIES.receiverNotReadyRetry()).isFalse();
		assertThat(DisniProvider.IWARP_CAPABILITIES.remoteErrorsAtInitiator()).isFalse();
		assertThat(DisniProvider.IWARP_CAPABILITIES.privateDataExchange()).isFalse();
		assertThat(DisniProvider.IWARP_CAPABILITIES.remoteInvalidation()).isFalse();
	}

	/** Forwards every probe, for tests that change one. */
	static class DelegatingEnvironment implements DisniEnvironment {

		private final DisniEnvironment delegate;

		DelegatingEnvironment(DisniEnvironment delegate) {
			this.delegate = delegate;
		}

		@Override
		public boolean classPresent(String className) {
			return this.delegate.classPresent(className);
		}

		@Override
		public Optional<String> loadLibrary(String name) {
			return this.delegate.loadLibrary(name);
		}

		@Override
		public Optional<Path> findSharedLibrary(String fileName) {
			return this.delegate.findSharedLibrary(fileName);
		}

		@Override
		public List<String> rdmaDevices() {
			return this.delegate.rdmaDevices();
		}

		@Override
		public boolean sunNioChExported() {
			return this.delegate.sunNioChExported();
		}

		@Override
		public String javaLibraryPath() {
			return this.delegate.javaLibraryPath();
		}

	}

}
