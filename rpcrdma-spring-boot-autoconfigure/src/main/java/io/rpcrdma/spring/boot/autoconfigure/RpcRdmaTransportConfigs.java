package io.rpcrdma.spring.boot.autoconfigure;

import java.time.Duration;
import java.util.Collections;
import java.util.List;

import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.transport.TransportConfig;

import org.springframework.util.unit.DataSize;

/**
 * Builds the core {@link TransportConfig} from validated {@code rpcrdma.*} values.
 */
public final class RpcRdmaTransportConfigs {

	/** Receives posted beyond the credits: RFC 5666 §3.3 wants one per credit plus room for RDMA_DONE and errors. */
	private static final int EXTRA_RECEIVES = 8;

	private RpcRdmaTransportConfigs() {
	}

	/**
	 * A transport configuration.
	 * @param versions the RPC-over-RDMA versions spoken; the highest is preferred
	 * (draft-cel-nfsv4-rpcrdma-version-two §5: try Version 2, fall back on ERR_VERS)
	 * @param inlineThresholdV1 the Version 1 inline threshold
	 * @param inlineThresholdV2 the Version 2 inline threshold
	 * @param creditsRequested credits a requester asks for
	 * @param creditsGranted credits a responder grants
	 * @param connectTimeout how long connecting may take, or {@code null} for the default
	 * @return the configuration
	 */
	public static TransportConfig of(List<Integer> versions, DataSize inlineThresholdV1, DataSize inlineThresholdV2,
			int creditsRequested, int creditsGranted, Duration connectTimeout) {
		TransportConfig defaults = TransportConfig.defaults();
		int low = Collections.min(versions);
		int high = Collections.max(versions);
		return defaults.withVersions(new VersionRange(low, high), high)
			.withInlineThresholds((int) inlineThresholdV1.toBytes(), (int) inlineThresholdV2.toBytes())
			.withCredits(creditsRequested, creditsGranted, Math.max(creditsRequested, creditsGranted) + EXTRA_RECEIVES)
			.withTimeouts((connectTimeout != null) ? connectTimeout : defaults.connectTimeout(),
					defaults.creditWaitTimeout(), defaults.doneTimeout());
	}

}
