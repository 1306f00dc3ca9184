package io.rpcrdma.server;

import io.rpcrdma.oncrpc.RpcReply;

/**
 * What a {@link ProgramRegistry} lookup found for a (program, version, procedure): a
 * {@link RegisteredProcedure} to run, or why there is none as the reply RFC 5531 §9 requires.
 * The negative answers are shared, so a lookup allocates nothing.
 */
public sealed interface Resolution permits RegisteredProcedure, Resolution.Unavailable {

	/**
	 * The program, version or procedure is not served here.
	 *
	 * @param kind which of the three is missing
	 * @param low for {@link Kind#PROGRAM_VERSION}, the lowest registered version (unsigned)
	 * @param high for {@link Kind#PROGRAM_VERSION}, the highest registered version (unsigned)
	 */
	record Unavailable(Kind kind, int low, int high) implements Resolution {

		/** The answer for a program that is not registered at all. */
		public static final Unavailable PROGRAM = new Unavailable(Kind.PROGRAM, 0, 0);

		/** The answer for a procedure the version does not have. */
		public static final Unavailable PROCEDURE = new Unavailable(Kind.PROCEDURE, 0, 0);

		/**
		 * Returns the reply header for a call with the given xid.
		 * @param xid the call's xid
		 * @return PROG_UNAVAIL, PROG_MISMATCH(low, high) or PROC_UNAVAIL
		 */
		public RpcReply reply(int xid) {
			return switch (this.kind) {
				case PROGRAM -> RpcReply.progUnavail(xid);
				case PROGRAM_VERSION -> RpcReply.progMismatch(xid, this.low, this.high);
				case PROCEDURE -> RpcReply.procUnavail(xid);
			};
		}

		/** Which part of the call's target is missing. */
		public enum Kind {

			/** No version of the program is registered: PROG_UNAVAIL. */
			PROGRAM,

			/** The program is registered, but not in the called version: PROG_MISMATCH. */
			PROGRAM_VERSION,

			/** The program version has no such procedure: PROC_UNAVAIL. */
			PROCEDURE

		}

	}

}
