package io.rpcrdma.verbs.disni;

import java.util.Optional;

import io.rpcrdma.verbs.RdmaProvider;

/**
 * How often a {@code disni} provider has called the kernel to register and deregister memory
 * ({@code ibv_reg_mr}, {@code ibv_dereg_mr}) since it opened. Each call pins or unpins pages
 * and costs a system call, so a steady workload should show neither growing per call: the
 * memory pools register once; what grows with traffic is STag rotation of advertised chunks,
 * which DiSNI 2.1 can only do by registering again (docs/hardware.md, "Registration cost"),
 * unless the device offers memory windows: then an advertised chunk's region is registered once,
 * gets one window at its first offer, and is bound and invalidated by work requests after that.
 * @param registrations {@code ibv_reg_mr} calls that succeeded
 * @param deregistrations {@code ibv_dereg_mr} calls made
 * @param windowAllocations {@code ibv_alloc_mw} calls that succeeded (each a system call, made
 * once per advertised region, and again only after a connection failed with the window bound)
 */
public record DisniRegistrationStats(long registrations, long deregistrations, long windowAllocations) {

	/**
	 * Counts without window allocations.
	 * @param registrations {@code ibv_reg_mr} calls that succeeded
	 * @param deregistrations {@code ibv_dereg_mr} calls made
	 */
	public DisniRegistrationStats(long registrations, long deregistrations) {
		this(registrations, deregistrations, 0);
	}

	/**
	 * Whether a provider offers advertised chunks through memory windows (a {@code disni}
	 * provider on a device that has them).
	 * @param provider any provider
	 * @return {@code true} if it does
	 */
	public static boolean memoryWindows(RdmaProvider provider) {
		return (provider instanceof DisniProvider disni) && disni.windows().available();
	}

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
				this.deregistrations - earlier.deregistrations, this.windowAllocations - earlier.windowAllocations);
	}

}
