package io.rpcrdma.server;

import io.rpcrdma.oncrpc.VersionRange;
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

	/** program → version → procedure; changed only under the lock. */
	private final Map<Integer, Map<Integer, Map<Integer, RegisteredProcedure>>> registrations = new HashMap<>();

	/** What lookups read: rebuilt from {@link #registrations} on every registration. */
	private volatile IntMap<ProgramEntry> programs = IntMap.of(Map.of());

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
			Map<Integer, RegisteredProcedure> procedures = versionOf(program, version);
			RegisteredProcedure existing = procedures.get(procedure);
			if (existing != null && !existing.builtInNull()) {
				throw new DuplicateRegistrationException(entry + " is already registered (handler " + existing.handler()
						+ "); register each procedure once, or use another version number for a new implementation");
			}
			procedures.put(procedure, entry);
			publish();
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
			versionOf(program, version);
			publish();
		}
		return this;
	}

	/**
	 * Finds the procedure a call targets, without locking or allocating.
	 * @param program the call's program
	 * @param version the call's program version
	 * @param procedure the call's procedure
	 * @return the procedure, or why there is none
	 */
	public ProcedureLookup resolve(int program, int version, int procedure) {
		ProgramEntry entry = this.programs.get(program);
		if (entry == null) {
			return ProcedureLookup.Unavailable.PROG_UNAVAIL;
		}
		IntMap<RegisteredProcedure> procedures = entry.versions.get(version);
		if (procedures == null) {
			return entry.mismatch;
		}
		RegisteredProcedure found = procedures.get(procedure);
		return (found != null) ? found : ProcedureLookup.Unavailable.PROC_UNAVAIL;
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

	/** Returns a version's procedures, creating the version with its NULL procedure. */
	private Map<Integer, RegisteredProcedure> versionOf(int program, int version) {
		return this.registrations.computeIfAbsent(program, (p) -> new HashMap<>()).computeIfAbsent(version, (v) -> {
			Map<Integer, RegisteredProcedure> procedures = new HashMap<>();
			procedures.put(RegisteredProcedure.NULL_PROCEDURE, RegisteredProcedure.nullProcedure(program, version));
			return procedures;
		});
	}

	/** Copies the registrations into a new immutable snapshot for lookups. */
	private void publish() {
		Map<Integer, ProgramEntry> snapshot = new HashMap<>();
		this.registrations.forEach((program, versions) -> {
			Map<Integer, IntMap<RegisteredProcedure>> byVersion = new HashMap<>();
			int low = -1;
			int high = 0;
			for (Map.Entry<Integer, Map<Integer, RegisteredProcedure>> version : versions.entrySet()) {
				byVersion.put(version.getKey(), IntMap.of(version.getValue()));
				low = (Integer.compareUnsigned(version.getKey(), low) < 0) ? version.getKey() : low;
				high = (Integer.compareUnsigned(version.getKey(), high) > 0) ? version.getKey() : high;
			}
			snapshot.put(program, new ProgramEntry(IntMap.of(byVersion),
					new ProcedureLookup.Unavailable(ProcedureLookup.Unavailable.Kind.PROG_MISMATCH, low, high)));
		});
		this.programs = IntMap.of(snapshot);
	}

	/** One program: its versions and their procedures, and its PROG_MISMATCH answer. */
	private record ProgramEntry(IntMap<IntMap<RegisteredProcedure>> versions, ProcedureLookup.Unavailable mismatch) {
	}

}
