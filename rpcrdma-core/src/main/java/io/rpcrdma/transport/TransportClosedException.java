package io.rpcrdma.transport;

/**
 * The RPC-over-RDMA connection failed or was closed while a call was outstanding (or before
 * it could be sent); whether the peer executed it is unknown.
 *
 * <p>This is the transport layer's report: it knows the connection, not the ONC RPC call
 * (program, version, procedure). It was called {@code ConnectionLostException} until the
 * client layer gained its own {@link io.rpcrdma.client.ConnectionLostException}, an
 * {@link io.rpcrdma.client.RpcCallException} naming the call; two classes with one simple name
 * in adjacent layers invited importing the wrong one. The layering is now: the transport
 * completes its futures with this exception, and {@code RpcClient} fails each pending call with
 * the client's {@code ConnectionLostException} whose {@linkplain #getCause() cause} is this one.
 */
public class TransportClosedException extends TransportException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message why the connection went down
	 */
	public TransportClosedException(String message) {
		super(message);
	}

}
