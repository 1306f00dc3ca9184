package io.rpcrdma.protocol;

/**
 * The rdma_optinfo of an optional feature this receiver supports is not what the feature
 * defines (draft-cel-nfsv4-rpcrdma-version-two-00 §3.2; {@link TraceContextOption}). The
 * message is answered with RDMA_ERR_BAD_HEADER, as any malformed header is.
 */
public final class InvalidOptionInfoException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final HeaderFault fault = HeaderFault.INVALID_OPTION_INFO;

	/**
	 * @param message what was wrong
	 */
	public InvalidOptionInfoException(String message) {
		super(message, null, false, false);
	}

	/** @return {@link HeaderFault#INVALID_OPTION_INFO} */
	public HeaderFault fault() {
		return this.fault;
	}

}
