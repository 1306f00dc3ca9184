package io.rpcrdma.verbs;

import java.util.Objects;

/**
 * One thing a provider needs and did not find, for messages a person acts on (Spring Boot's
 * failure analysis among them).
 *
 * @param requirement what is needed, for example "an RDMA device under /sys/class/infiniband"
 * @param observed what the probe saw instead
 * @param remedy how to get it
 */
public record MissingRequirement(String requirement, String observed, String remedy) {

	/** Requires every part. */
	public MissingRequirement {
		Objects.requireNonNull(requirement, "requirement");
		Objects.requireNonNull(observed, "observed");
		Objects.requireNonNull(remedy, "remedy");
	}

}
