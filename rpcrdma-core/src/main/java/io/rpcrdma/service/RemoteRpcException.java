package io.rpcrdma.service;

import java.util.Objects;

/**
 * A service method threw an exception on the server whose type cannot be rethrown here: it
 * is unknown on the client's class path, not a {@link RuntimeException} nor declared by the
 * method, or cannot be constructed from a message. Carries what travelled: the remote type,
 * its stable code and message, and which call it was.
 */
public class RemoteRpcException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String remoteType;

	private final int code;

	private final String remoteMessage;

	/**
	 * @param fault what travelled
	 * @param call the service, method and endpoint, e.g. {@code FileStore.read at rdma://10.0.0.7:20049}
	 */
	public RemoteRpcException(RemoteFault fault, String call) {
		super(fault.type() + (fault.message().isEmpty() ? "" : ": " + fault.message()) + " (code " + fault.code()
				+ ", thrown by " + Objects.requireNonNull(call, "call") + ")");
		this.remoteType = fault.type();
		this.code = fault.code();
		this.remoteMessage = fault.message();
	}

	/** @return the fully qualified class name of the exception thrown on the server */
	public String remoteType() {
		return this.remoteType;
	}

	/** @return its stable error code ({@link RpcFault}, or derived from the class name) */
	public int code() {
		return this.code;
	}

	/** @return its message, empty for none */
	public String remoteMessage() {
		return this.remoteMessage;
	}

}
