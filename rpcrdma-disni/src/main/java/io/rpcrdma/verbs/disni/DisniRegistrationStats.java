package io.rpcrdma.verbs.disni;

import java.util.Optional;

import io.rpcrdma.verbs.RdmaProvider;

/**
 * How often a {@code disni} provider has called the kernel to register and deregister memory
 * ({@code ibv_reg_mr}, {@code ibv_dereg_mr}) since it opened. Each call pins or unpins pages
 * and costs a system call, so a steady workload should show neither growing per call: the
 * memory pools register once; what grows with traffic is STag rotation of advertised chunks,
 * which DiSNI 2.1 can only do by registering again (docs/hardware.md, "Registration cost").
 * @param registrations {@code ibv_reg_mr} calls that succeeded
 * @param deregistrations {@code ibv_dereg_mr} calls made
 */
public record DisniRegistrationStats(long registrations, long deregistrations) {

	/**
	 * The counts of a provider, if it is a {@code disni} one (the software providers register
	 * nothing with a kernel).
	 * @param provider any provider
	 * @return its counts since it opened, or empty
	 */
	public static Optional<DisniRegistrationStats> of(RdmaProvider provider) {
		return (provider instanceof DisniProvider disni) ? Optional.of(disni.registrationStats()) : Optional.empty();
	}

	/**
	 * @param earlier counts taken before
	 * @return what happened between {@code earlier} and these
	 */
	public DisniRegistrationStats since(DisniRegistrationStats earlier) {
		return new DisniRegistrationStats(this.registrations - earlier.registrations,
				this.deregistrations - earlier.deregistrations);
	}

}
