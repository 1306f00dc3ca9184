package io.rpcrdma.transport;

import io.rpcrdma.protocol.RdmaErrorHeader;

/**
 * The responder answered the call with RDMA_ERROR (RFC 5666 §4.2, RFC 8166 §4.5,
 * draft-cel-nfsv4-rpcrdma-version-two §3.1): it could not parse or serve the transport
 * header, so the RPC was not executed.
 */
public class RdmaErrorReceivedException extends TransportException {

	private static final long serialVersionUID = 1L;

	private final transient RdmaErrorHeader error;

	/**
	 * @param error the RDMA_ERROR received
	 */
	public RdmaErrorReceivedException(RdmaErrorHeader error) {
		super(describe(error));
		this.error = error;
	}

	/**
	 * @param error the RDMA_ERROR received
	 * @param message what it means for the call
	 */
	protected RdmaErrorReceivedException(RdmaErrorHeader error, String message) {
		super(message);
		this.error = error;
	}

	/**
	 * The error header as received.
	 * @return the header
	 */
	public RdmaErrorHeader error() {
		return this.error;
	}

	private static String describe(RdmaErrorHeader error) {
		return "The responder answered XID 0x" + Integer.toHexString(error.xid()) + " with RDMA_ERROR " + error
				+ "; the RPC was not executed";
	}

}
