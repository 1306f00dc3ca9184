package io.rpcrdma.benchmarks.compare;

/**
 * A contender answered with something other than what was asked: the measurement would be
 * meaningless, so the run stops.
 */
final class UnexpectedReplyException extends Exception {

	UnexpectedReplyException(String contender, String what) {
		super(contender + " answered wrongly: " + what + "; the comparison stops because its figures would be wrong");
	}

}
