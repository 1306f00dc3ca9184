package io.rpcrdma.service;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrInvalidValueException;

/**
 * The results of every service procedure: a discriminated union (RFC 4506 §4.15) of the
 * method's result and the {@link RemoteFault} of the exception it threw, so an application
 * error travels as data inside an RPC SUCCESS reply (RFC 5531 §9 reserves the accept_stat
 * values for RPC-level failures). In XDR, for a method {@code T m(...)} of version V:
 * <pre>
 * union m_V_res switch (int status) {
 * case 0:  T result;             // "void;" for a void method
 * case 1:  rpcrdma_fault fault;
 * };
 * </pre>
 */
public final class ProcedureResults {

	/** The discriminant of a normal result. */
	public static final int RESULT = 0;

	/** The discriminant of a fault. */
	public static final int FAULT = 1;

	private ProcedureResults() {
	}

	/**
	 * Writes a normal result.
	 * @param procedure the procedure
	 * @param result what its method returned
	 * @param out the results encoder
	 */
	public static void encodeResult(ProcedureDescriptor procedure, Object result, XdrEncoder out) {
		out.writeInt(RESULT);
		procedure.encodeResult(result, out);
	}

	/**
	 * Writes a fault.
	 * @param fault the exception as it travels
	 * @param out the results encoder
	 */
	public static void encodeFault(RemoteFault fault, XdrEncoder out) {
		out.writeInt(FAULT);
		fault.encode(out);
	}

	/**
	 * Reads the results of a call.
	 * @param procedure the procedure called
	 * @param in positioned at the results of an accepted SUCCESS reply
	 * @return the decoded result or fault
	 * @throws io.rpcrdma.xdr.XdrException if the results are malformed
	 */
	public static Outcome decode(ProcedureDescriptor procedure, XdrDecoder in) {
		return decodeAfterStatus(procedure, in.readInt(), in);
	}

	/**
	 * Reads the results of a call whose status word was read already.
	 * @param procedure the procedure called
	 * @param status the union's discriminant
	 * @param in positioned just after it
	 * @return the decoded result or fault
	 * @throws io.rpcrdma.xdr.XdrException if the results are malformed
	 */
	public static Outcome decodeAfterStatus(ProcedureDescriptor procedure, int status, XdrDecoder in) {
		return switch (status) {
			case RESULT -> new Outcome.Returned(procedure.decodeResult(in));
			case FAULT -> new Outcome.Faulted(RemoteFault.decode(in));
			default -> throw new XdrInvalidValueException("results of " + procedure.name() + " carry status " + status
					+ "; expected " + RESULT + " (result) or " + FAULT + " (fault)");
		};
	}

	/** What a call's results hold. */
	public sealed interface Outcome {

		/**
		 * The method returned.
		 * @param value its result, {@code null} for void
		 */
		record Returned(Object value) implements Outcome {
		}

		/**
		 * The method threw.
		 * @param fault what it threw
		 */
		record Faulted(RemoteFault fault) implements Outcome {
		}

	}

}
