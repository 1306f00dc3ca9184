package io.rpcrdma.demo.workload;

/**
 * The store answered a workload call with something other than what was stored: a bug in
 * the transport, the codecs or the store, never a user error.
 */
public class WorkloadCheckException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what differed
	 */
	public WorkloadCheckException(String message) {
		super(message);
	}

}
