package io.rpcrdma.verbs.conformance;

import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * An immutable copy of a {@link WorkCompletion}, for assertions.
 *
 * @param wrId the work request id
 * @param opcode the opcode
 * @param status the status
 * @param byteLength the byte count
 * @param queuePairNumber the queue pair number
 * @param withInvalidate whether an STag was invalidated
 * @param invalidatedStag the invalidated STag
 * @param detail the error detail
 */
public record Completion(long wrId, CompletionOpcode opcode, CompletionStatus status, int byteLength,
		int queuePairNumber, boolean withInvalidate, int invalidatedStag, String detail) {

	/**
	 * Copies a holder.
	 * @param wc the holder
	 * @return the copy
	 */
	public static Completion of(WorkCompletion wc) {
		return new Completion(wc.wrId(), wc.opcode(), wc.status(), wc.byteLength(), wc.queuePairNumber(),
				wc.withInvalidate(), wc.invalidatedStag(), wc.detail());
	}

}
