package io.rpcrdma.verbs.disni;

import java.util.List;
import java.util.Objects;

import io.rpcrdma.verbs.MissingRequirement;
import io.rpcrdma.verbs.ProviderUnavailableException;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviderFactory;

/**
 * Discovers the {@code disni} provider: RDMA adapters (InfiniBand, RoCE, iWARP, and
 * Soft-RoCE) through DiSNI 2.1, libibverbs and librdmacm.
 * <p>
 * This class touches no DiSNI type, so it loads and answers {@link #isAvailable()} on
 * machines without DiSNI; {@link #unavailableReason()} then lists every missing piece
 * and how to get it (see {@link DisniDetection}). {@code auto} prefers this provider
 * when it is available.
 */
public final class DisniProviderFactory implements RdmaProviderFactory {

	/** The provider name. */
	public static final String NAME = "disni";

	/** The probes of this JVM cannot change while it runs, so they run once. */
	private static volatile DisniDetection systemDetection;

	private final DisniEnvironment environment;

	/**
	 * The factory {@link java.util.ServiceLoader} uses: probes this machine.
	 */
	public DisniProviderFactory() {
		this.environment = null;
	}

	/**
	 * A factory that probes the given environment instead of this machine.
	 * @param environment the probes
	 */
	public DisniProviderFactory(DisniEnvironment environment) {
		this.environment = Objects.requireNonNull(environment, "environment");
	}

	/**
	 * What detection found.
	 * @return the detection result
	 */
	public DisniDetection detection() {
		if (this.environment != null) {
			return DisniDetection.detect(this.environment);
		}
		DisniDetection detection = systemDetection;
		if (detection == null) {
			detection = DisniDetection.detect(DisniEnvironment.system());
			systemDetection = detection;
		}
		return detection;
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public boolean isAvailable() {
		return detection().isAvailable();
	}

	@Override
	public String unavailableReason() {
		return detection().summary();
	}

	@Override
	public List<MissingRequirement> missingRequirements() {
		return detection().missing().stream()
			.map((entry) -> new MissingRequirement(entry.requirement().description(), entry.detail(),
					entry.requirement().remedy()))
			.toList();
	}

	@Override
	public int autoPriority() {
		return 300;
	}

	/**
	 * Opens the device selected by {@link DisniSettings#LOCAL_ADDRESS} (or the first RDMA
	 * interface); see {@link DisniSettings} for every setting.
	 * @param config provider settings
	 * @return the open provider
	 * @throws ProviderUnavailableException if DiSNI cannot run here or the device cannot be
	 * opened
	 */
	@Override
	public RdmaProvider create(RdmaProviderConfig config) {
		DisniDetection detection = detection();
		if (!detection.isAvailable()) {
			throw new ProviderUnavailableException("RDMA provider 'disni' cannot start: " + detection.summary());
		}
		return DisniProvider.open(DisniSettings.from(config));
	}

}
