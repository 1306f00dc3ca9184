package io.rpcrdma.server;

/**
 * Whether executing a procedure twice has the same effect as executing it once. Only
 * non-idempotent procedures go through the {@link DuplicateRequestCache}: a retransmitted
 * idempotent call is simply executed again.
 */
public enum Idempotence {

	/** Safe to execute again, for example a read or the NULL procedure. */
	IDEMPOTENT,

	/**
	 * Must execute at most once per call, for example a create, remove or append: a
	 * retransmission is answered from the duplicate request cache.
	 */
	NON_IDEMPOTENT

}
