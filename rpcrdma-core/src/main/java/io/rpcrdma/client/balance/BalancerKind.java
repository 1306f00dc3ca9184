package io.rpcrdma.client.balance;

import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The built-in {@link Balancer}s, by configuration name.
 */
public enum BalancerKind {

	/** Each instance in turn, skipping those not eligible. */
	ROUND_ROBIN("round-robin"),

	/**
	 * The eligible instance with the fewest outstanding calls; ties go round robin, so an idle
	 * set is still spread evenly. Reads every instance's count on each call: best for small sets.
	 */
	LEAST_OUTSTANDING("least-outstanding"),

	/**
	 * Two eligible instances drawn at random, the one with fewer outstanding calls: nearly as
	 * good as least outstanding at reading two counts per call, and no herd on the one idle
	 * instance when many clients decide at once (Mitzenmacher, "The Power of Two Choices in
	 * Randomized Load Balancing", 2001).
	 */
	POWER_OF_TWO_CHOICES("power-of-two-choices");

	private final String configName;

	BalancerKind(String configName) {
		this.configName = configName;
	}

	/** @return the name in configuration, such as {@code least-outstanding} */
	public String configName() {
		return this.configName;
	}

	/**
	 * @param random draws for {@link #POWER_OF_TWO_CHOICES}; a seeded, single-threaded one makes
	 * choices reproducible in tests
	 * @return a new balancer of this kind
	 */
	public Balancer create(RandomGenerator random) {
		Objects.requireNonNull(random, "random");
		return switch (this) {
			case ROUND_ROBIN -> new RoundRobinBalancer();
			case LEAST_OUTSTANDING -> new LeastOutstandingBalancer();
			case POWER_OF_TWO_CHOICES -> new PowerOfTwoChoicesBalancer(random);
		};
	}

	/**
	 * @param name a configuration name ({@code round-robin}) or constant name ({@code ROUND_ROBIN}),
	 * any case
	 * @return the kind
	 * @throws IllegalArgumentException naming the valid names when there is no such kind
	 */
	public static BalancerKind fromName(String name) {
		Objects.requireNonNull(name, "name");
		String wanted = name.trim().replace('_', '-');
		for (BalancerKind kind : values()) {
			if (kind.configName.equalsIgnoreCase(wanted)) {
				return kind;
			}
		}
		throw new IllegalArgumentException("No balancer '" + name + "'; use round-robin, least-outstanding or "
				+ "power-of-two-choices");
	}

}
