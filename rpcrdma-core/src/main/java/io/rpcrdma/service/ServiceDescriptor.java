package io.rpcrdma.service;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A Java interface bound as one version of an ONC RPC program (RFC 5531 §7): its numbers,
 * and its procedures in ascending procedure-number order. Built by {@link ServiceIntrospector}.
 *
 * @param program the program number (unsigned)
 * @param version the version number (unsigned)
 * @param name a name for logs and the exported XDR language file
 * @param serviceInterface the interface
 * @param procedures the procedures, ascending by number; the NULL procedure 0 is implicit
 */
public record ServiceDescriptor(int program, int version, String name, Class<?> serviceInterface, List<ProcedureDescriptor> procedures) {

	public ServiceDescriptor {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(serviceInterface, "serviceInterface");
		procedures = List.copyOf(procedures);
	}

	/**
	 * @param number a procedure number
	 * @return that procedure, empty for 0 (NULL, handled by the server itself) and unknown numbers
	 */
	public Optional<ProcedureDescriptor> procedure(int number) {
		for (ProcedureDescriptor procedure : this.procedures) {
			if (procedure.number() == number) {
				return Optional.of(procedure);
			}
		}
		return Optional.empty();
	}

	/**
	 * @param method a method of the interface
	 * @return its procedure, empty if it is not remote (default, static, or from Object)
	 */
	public Optional<ProcedureDescriptor> procedure(Method method) {
		for (ProcedureDescriptor procedure : this.procedures) {
			if (procedure.method().equals(method)) {
				return Optional.of(procedure);
			}
		}
		return Optional.empty();
	}

	@Override
	public String toString() {
		return this.name + " (program " + ProgramNumbers.hex(this.program) + " version " + Integer.toUnsignedString(this.version) + ", "
				+ this.procedures.size() + " procedures)";
	}

}
