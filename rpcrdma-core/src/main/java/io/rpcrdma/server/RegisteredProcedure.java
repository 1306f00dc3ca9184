package io.rpcrdma.server;

import java.util.Objects;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * A procedure a {@link ProgramRegistry} serves.
 *
 * @param program the program number
 * @param version the program version
 * @param procedure the procedure number
 * @param idempotence whether a retransmission may execute it again
 * @param handler runs it; for the built-in NULL procedure, a handler that writes nothing
 * @param builtInNull whether this is the NULL procedure the registry answers by itself
 */
public record RegisteredProcedure(int program, int version, int procedure, Idempotence idempotence,
		ProcedureHandler handler, boolean builtInNull) implements ProcedureLookup {

	/** RFC 5531 §12.1 convention: procedure 0 of every program takes and returns nothing. */
	public static final int NULL_PROCEDURE = 0;

	private static final ProcedureHandler NOTHING = (call, arguments, results) -> ProcedureHandler.DONE;

	public RegisteredProcedure {
		Objects.requireNonNull(idempotence, "idempotence");
		Objects.requireNonNull(handler, "handler");
	}

	static RegisteredProcedure nullProcedure(int program, int version) {
		return new RegisteredProcedure(program, version, NULL_PROCEDURE, Idempotence.IDEMPOTENT, NOTHING, true);
	}

	/**
	 * @return whether the duplicate request cache protects this procedure
	 */
	public boolean idempotent() {
		return this.idempotence == Idempotence.IDEMPOTENT;
	}

	@Override
	public String toString() {
		return "program " + ProgramNumberText.hex(this.program) + " version "
				+ Integer.toUnsignedString(this.version) + " procedure " + Integer.toUnsignedString(this.procedure);
	}

}
