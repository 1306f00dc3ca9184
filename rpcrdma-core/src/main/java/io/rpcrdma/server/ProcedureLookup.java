package io.rpcrdma.server;

import io.rpcrdma.oncrpc.RpcReply;

/**
 * What a {@link ProgramRegistry} lookup of a call's (program, version, procedure) found: a
 * {@link RegisteredProcedure} to run, or which of the replies RFC 5531 §9 gives a call that
 * cannot run (PROG_UNAVAIL, PROG_MISMATCH, PROC_UNAVAIL) it gets. The negative answers are
 * shared, so a lookup allocates nothing.
 */
public sealed interface ProcedureLookup permits RegisteredProcedure, ProcedureLookup.Unavailable {

	/**
	 * The program, version or procedure is not served here.
	 *
	 * @param kind which of the three is missing
	 * @param low for {@link Kind#PROG_MISMATCH}, the lowest registered version (unsigned)
	 * @param high for {@link Kind#PROG_MISMATCH}, the highest registered version (unsigned)
	 */
	record Unavailable(Kind kind, int low, int high) implements ProcedureLookup {

		/** The answer for a program that is not registered at all. */
		public static final Unavailable PROG_UNAVAIL = new Unavailable(Kind.PROG_UNAVAIL, 0, 0);

		/** The answer for a procedure the version does not have. */
		public static final Unavailable PROC_UNAVAIL = new Unavailable(Kind.PROC_UNAVAIL, 0, 0);

		/**
		 * Returns the reply header for a call with the given xid.
		 * @param xid the call's xid
		 * @return PROG_UNAVAIL, PROG_MISMATCH(low, high) or PROC_UNAVAIL
		 */
		public RpcReply reply(int xid) {
			return switch (this.kind) {
				case PROG_UNAVAIL -> RpcReply.progUnavail(xid);
				case PROG_MISMATCH -> RpcReply.progMismatch(xid, this.low, this.high);
				case PROC_UNAVAIL -> RpcReply.procUnavail(xid);
			};
		}

		/** Which part of the call's target is missing, named as the reply's accept_stat. */
		public enum Kind {

			/** No version of the program is registered: PROG_UNAVAIL. */
			PROG_UNAVAIL,

			/** The program is registered, but not in the called version: PROG_MISMATCH. */
			PROG_MISMATCH,

			/** The program version has no such procedure: PROC_UNAVAIL. */
			PROC_UNAVAIL

		}

	}

}
