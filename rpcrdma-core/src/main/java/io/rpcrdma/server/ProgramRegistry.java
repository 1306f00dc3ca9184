package io.rpcrdma.server;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The programs a server exports: (program, version, procedure) → {@link ProcedureHandler}.
 * <p>
 * Several versions of a program live side by side. Every registered program version answers
 * the NULL procedure (0) by itself (RFC 5531 §12.1) unless a handler is registered for it.
 * A lookup that misses yields the reply RFC 5531 §9 prescribes: PROG_UNAVAIL for an unknown
 * program, PROG_MISMATCH with the lowest and highest registered versions for an unknown
 * version, PROC_UNAVAIL for an unknown procedure.
 * <p>
 * Lookups run on every call, so they read an immutable snapshot through one volatile read and
 * take no lock; registration (rare, usually at start-up) copies the snapshot under a lock.
 * Program, version and procedure numbers are unsigned; version ranges compare them so.
 */
public final class ProgramRegistry {

	private final Object registrationLock = new Object();

	private volatile Map<Integer, ProgramEntry> programs = Map.of();

	/**
	 * Registers a procedure that must execute at most once per call
	 * ({@link Idempotence#NON_IDEMPOTENT}, the safe default).
	 * @param program the program number
	 * @param version the program version
	 * @param procedure the procedure number
	 * @param handler runs it
	 * @return this registry
	 * @throws DuplicateRegistrationException if the procedure is already registered
	 */
	public ProgramRegistry register(int program, int version, int procedure, ProcedureHandler handler) {
		return register(program, version, procedure, Idempotence.NON_IDEMPOTENT, handler);
	}

	/**
	 * Registers a procedure.
	 * @param program the program number
	 * @param version the program version
	 * @param procedure the procedure number; registering 0 replaces the built-in NULL answer
	 * @param idempotence whether a retransmission may execute it again
	 * @param handler runs it
	 * @return this registry
	 * @throws DuplicateRegistrationException if the procedure is already registered
	 */
	public ProgramRegistry register(int program, int version, int procedure, Idempotence idempotence,
			ProcedureHandler handler) {
		RegisteredProcedure entry = new RegisteredProcedure(program, version, procedure, idempotence,
				Objects.requireNonNull(handler, "handler"), false);
		synchronized (this.registrationLock) {
			Map<Integer, ProgramEntry> copy = new HashMap<>(this.programs);
			ProgramEntry current = copy.get(program);
			RegisteredProcedure existing = (current != null) ? current.procedure(version, procedure) : null;
			if (existing != null && !existing.builtInNull()) {
				throw new DuplicateRegistrationException(entry + " is already registered (handler " + existing.handler()
						+ "); register each procedure once, or use another version number for a new implementation");
			}
			copy.put(program, ((current != null) ? current : ProgramEntry.EMPTY).with(entry));
			this.programs = Map.copyOf(copy);
		}
		return this;
	}

	/**
	 * Registers a program version that serves only the NULL procedure so far, for example so
	 * a client can ping it; registering it again has no effect.
	 * @param program the program number
	 * @param version the program version
	 * @return this registry
	 */
	public ProgramRegistry registerVersion(int program, int version) {
		synchronized (this.registrationLock) {
			ProgramEntry current = this.programs.get(program);
			if (current == null || current.versions.get(version) == null) {
				Map<Integer, ProgramEntry> copy = new HashMap<>(this.programs);
				copy.put(program, ((current != null) ? current : ProgramEntry.EMPTY).withVersion(program, version));
				this.programs = Map.copyOf(copy);
			}
		}
		return this;
	}

	/**
	 * Finds the procedure a call targets.
	 * @param program the call's program
	 * @param version the call's program version
	 * @param procedure the call's procedure
	 * @return the procedure, or why there is none
	 */
	public Resolution resolve(int program, int version, int procedure) {
		ProgramEntry entry = this.programs.get(program);
		if (entry == null) {
			return Resolution.Unavailable.PROGRAM;
		}
		Map<Integer, RegisteredProcedure> procedures = entry.versions.get(version);
		if (procedures == null) {
			return entry.mismatch;
		}
		RegisteredProcedure found = procedures.get(procedure);
		return (found != null) ? found : Resolution.Unavailable.PROCEDURE;
	}

	/**
	 * Returns the versions of a program served here, as PROG_MISMATCH reports them.
	 * @param program the program number
	 * @return the lowest and highest registered version (unsigned), or empty if the program is
	 * not registered
	 */
	public Optional<VersionRange> versions(int program) {
		ProgramEntry entry = this.programs.get(program);
		return (entry == null) ? Optional.empty()
				: Optional.of(new VersionRange(entry.mismatch.low(), entry.mismatch.high()));
	}

	/**
	 * The versions of a program a server supports, unsigned and inclusive.
	 *
	 * @param low the lowest version
	 * @param high the highest version
	 */
	public record VersionRange(int low, int high) {
	}

	/** One program: its versions and their procedures, and its PROG_MISMATCH answer. */
	private record ProgramEntry(Map<Integer, Map<Integer, RegisteredProcedure>> versions,
			Resolution.Unavailable mismatch) {

		static final ProgramEntry EMPTY = new ProgramEntry(Map.of(), null);

		RegisteredProcedure procedure(int version, int procedure) {
			Map<Integer, RegisteredProcedure> procedures = this.versions.get(version);
			return (procedures != null) ? procedures.get(procedure) : null;
		}

		ProgramEntry withVersion(int program, int version) {
			Map<Integer, Map<Integer, RegisteredProcedure>> copy = new HashMap<>(this.versions);
			copy.putIfAbsent(version,
					Map.of(RegisteredProcedure.NULL_PROCEDURE, RegisteredProcedure.nullProcedure(program, version)));
			return of(copy);
		}

		ProgramEntry with(RegisteredProcedure entry) {
			ProgramEntry withVersion = withVersion(entry.program(), entry.version());
			Map<Integer, Map<Integer, RegisteredProcedure>> copy = new HashMap<>(withVersion.versions);
			Map<Integer, RegisteredProcedure> procedures = new HashMap<>(copy.get(entry.version()));
			procedures.put(entry.procedure(), entry);
			copy.put(entry.version(), Map.copyOf(procedures));
			return of(copy);
		}

		private static ProgramEntry of(Map<Integer, Map<Integer, RegisteredProcedure>> versions) {
			int low = -1;
			int high = 0;
			for (int version : versions.keySet()) {
				if (Integer.compareUnsigned(version, low) < 0) {
					low = version;
				}
				if (Integer.compareUnsigned(version, high) > 0) {
					high = version;
				}
			}
			return new ProgramEntry(Map.copyOf(versions),
					new Resolution.Unavailable(Resolution.Unavailable.Kind.PROGRAM_VERSION, low, high));
		}

	}

}
