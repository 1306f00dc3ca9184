package io.rpcrdma.oncrpc;

/**
 * The outcome of an accepted call (RFC 5531 §9 {@code accept_stat} and the union arm it
 * selects).
 * <p>
 * The statuses without data are shared constants ({@link #SUCCESS}, {@link #PROG_UNAVAIL},
 * {@link #PROC_UNAVAIL}, {@link #GARBAGE_ARGS}, {@link #SYSTEM_ERR}); {@link ProgMismatch}
 * carries the supported version range.
 */
public sealed interface AcceptStatus {

	/** The procedure ran; its results follow the reply header. */
	Success SUCCESS = new Success();

	/** The program is not available here. */
	ProgUnavail PROG_UNAVAIL = new ProgUnavail();

	/** The program version has no such procedure. */
	ProcUnavail PROC_UNAVAIL = new ProcUnavail();

	/** The procedure cannot decode its parameters. */
	GarbageArgs GARBAGE_ARGS = new GarbageArgs();

	/** A server error not attributable to the call, such as memory exhaustion. */
	SystemErr SYSTEM_ERR = new SystemErr();

	/**
	 * @return the {@code accept_stat} value on the wire
	 */
	int code();

	/** {@code SUCCESS = 0}: the procedure ran; its results follow. */
	record Success() implements AcceptStatus {

		/** The {@code accept_stat} value. */
		public static final int CODE = 0;

		@Override
		public int code() {
			return CODE;
		}

	}

	/** {@code PROG_UNAVAIL = 1}: the remote has not exported the program. */
	record ProgUnavail() implements AcceptStatus {

		/** The {@code accept_stat} value. */
		public static final int CODE = 1;

		@Override
		public int code() {
			return CODE;
		}

	}

	/**
	 * {@code PROG_MISMATCH = 2}: the remote cannot support the called version of the program;
	 * it supports versions {@code low} to {@code high} (unsigned).
	 *
	 * @param low the lowest version supported
	 * @param high the highest version supported
	 */
	record ProgMismatch(int low, int high) implements AcceptStatus {

		/** The {@code accept_stat} value. */
		public static final int CODE = 2;

		@Override
		public int code() {
			return CODE;
		}

	}

	/** {@code PROC_UNAVAIL = 3}: the program cannot support the procedure. */
	record ProcUnavail() implements AcceptStatus {

		/** The {@code accept_stat} value. */
		public static final int CODE = 3;

		@Override
		public int code() {
			return CODE;
		}

	}

	/** {@code GARBAGE_ARGS = 4}: the procedure cannot decode its parameters. */
	record GarbageArgs() implements AcceptStatus {

		/** The {@code accept_stat} value. */
		public static final int CODE = 4;

		@Override
		public int code() {
			return CODE;
		}

	}

	/** {@code SYSTEM_ERR = 5}: for example a memory allocation failure on the server. */
	record SystemErr() implements AcceptStatus {

		/** The {@code accept_stat} value. */
		public static final int CODE = 5;

		@Override
		public int code() {
			return CODE;
		}

	}

}
