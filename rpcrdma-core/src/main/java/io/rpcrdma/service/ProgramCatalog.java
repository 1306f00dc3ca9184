package io.rpcrdma.service;

import io.rpcrdma.oncrpc.VersionRange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The programs a server offers: several versions of one program side by side (two interfaces
 * with the same program number and different versions), and the answers RFC 5531 §9 needs to
 * dispatch a call: the procedure, or PROG_UNAVAIL, PROG_MISMATCH with the lowest and highest
 * versions offered, or PROC_UNAVAIL. Versions are compared as unsigned numbers.
 * <p>
 * Thread-safe: registration copies, lookups read an immutable snapshot.
 */
public final class ProgramCatalog {

	private volatile Map<Integer, NavigableMap<Integer, ServiceDescriptor>> programs = Map.of();

	/**
	 * Adds a program version.
	 * @param descriptor the bound interface
	 * @return this catalog
	 * @throws IllegalArgumentException if that program version is already registered for
	 * another interface
	 */
	public synchronized ProgramCatalog add(ServiceDescriptor descriptor) {
		Objects.requireNonNull(descriptor, "descriptor");
		Map<Integer, NavigableMap<Integer, ServiceDescriptor>> copy = new HashMap<>(this.programs);
		NavigableMap<Integer, ServiceDescriptor> versions = new TreeMap<>(Integer::compareUnsigned);
		NavigableMap<Integer, ServiceDescriptor> existing = copy.get(descriptor.program());
		if (existing != null) {
			versions.putAll(existing);
		}
		ServiceDescriptor other = versions.get(descriptor.version());
		if (other != null && !other.equals(descriptor)) {
			throw new IllegalArgumentException("program " + ProgramNumbers.hex(descriptor.program()) + " version "
					+ Integer.toUnsignedString(descriptor.version()) + " is already served by " + other.serviceInterface().getName()
					+ "; " + descriptor.serviceInterface().getName() + " needs another version or program number"
					+ " (a derived number can collide: give one of them @RpcProgram(number = ...))");
		}
		versions.put(descriptor.version(), descriptor);
		copy.put(descriptor.program(), Collections.unmodifiableNavigableMap(versions));
		this.programs = Map.copyOf(copy);
		return this;
	}

	/**
	 * @param program a program number
	 * @param version a version number
	 * @return that program version, if registered
	 */
	public Optional<ServiceDescriptor> find(int program, int version) {
		NavigableMap<Integer, ServiceDescriptor> versions = this.programs.get(program);
		return (versions != null) ? Optional.ofNullable(versions.get(version)) : Optional.empty();
	}

	/**
	 * The versions of a program, for a PROG_MISMATCH reply (RFC 5531 §9 {@code mismatch_info}).
	 * @param program a program number
	 * @return the lowest and highest registered versions, empty if the program is unknown
	 */
	public Optional<VersionRange> versions(int program) {
		NavigableMap<Integer, ServiceDescriptor> versions = this.programs.get(program);
		if (versions == null || versions.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(new VersionRange(versions.firstKey(), versions.lastKey()));
	}

	/** @return every registered program version, by program then version */
	public List<ServiceDescriptor> all() {
		List<ServiceDescriptor> all = new ArrayList<>();
		this.programs.entrySet()
			.stream()
			.sorted(Map.Entry.comparingByKey(Integer::compareUnsigned))
			.forEach((entry) -> all.addAll(entry.getValue().values()));
		return all;
	}

	/**
	 * Resolves a call's program, version and procedure as a server dispatches it.
	 * @param program the call's program
	 * @param version the call's version
	 * @param procedure the call's procedure
	 * @return what to do with the call
	 */
	public Dispatch dispatch(int program, int version, int procedure) {
		NavigableMap<Integer, ServiceDescriptor> versions = this.programs.get(program);
		if (versions == null) {
			return new Dispatch.ProgramUnavailable(program);
		}
		ServiceDescriptor service = versions.get(version);
		if (service == null) {
			return new Dispatch.ProgramMismatch(program, new VersionRange(versions.firstKey(), versions.lastKey()));
		}
		if (procedure == 0) {
			return new Dispatch.NullProcedure(service);
		}
		Optional<ProcedureDescriptor> found = service.procedure(procedure);
		if (found.isEmpty()) {
			return new Dispatch.ProcedureUnavailable(service, procedure);
		}
		return new Dispatch.Found(service, found.get());
	}

	/**
	 * The outcome of {@link ProgramCatalog#dispatch}, mapping onto RFC 5531 §9 {@code accept_stat}.
	 */
	public sealed interface Dispatch {

		/**
		 * Run this procedure.
		 * @param service the program version
		 * @param procedure the procedure
		 */
		record Found(ServiceDescriptor service, ProcedureDescriptor procedure) implements Dispatch {
		}

		/**
		 * Procedure 0: reply SUCCESS with no results (RFC 5531 §12.1).
		 * @param service the program version
		 */
		record NullProcedure(ServiceDescriptor service) implements Dispatch {
		}

		/**
		 * PROG_UNAVAIL.
		 * @param program the unknown program
		 */
		record ProgramUnavailable(int program) implements Dispatch {
		}

		/**
		 * PROG_MISMATCH with the versions offered.
		 * @param program the program
		 * @param supported the lowest and highest versions offered
		 */
		record ProgramMismatch(int program, VersionRange supported) implements Dispatch {
		}

		/**
		 * PROC_UNAVAIL.
		 * @param service the program version
		 * @param procedure the unknown procedure
		 */
		record ProcedureUnavailable(ServiceDescriptor service, int procedure) implements Dispatch {
		}

	}

}
