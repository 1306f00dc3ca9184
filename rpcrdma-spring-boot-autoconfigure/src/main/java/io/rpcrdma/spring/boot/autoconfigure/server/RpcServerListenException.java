package io.rpcrdma.spring.boot.autoconfigure.server;

import java.net.BindException;
import java.net.InetSocketAddress;

/**
 * The RPC-over-RDMA server could not listen on the address {@code rpcrdma.server.address} and
 * {@code rpcrdma.server.port} name, with why: the port is taken, the host name does not
 * resolve, or something else the cause says.
 */
public class RpcServerListenException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final InetSocketAddress address;

	private final String provider;

	private final Reason reason;

	/**
	 * Why the server could not listen.
	 */
	public enum Reason {

		/** Something else listens on the port. */
		ADDRESS_IN_USE,

		/** The host name does not resolve to an IP address. */
		UNRESOLVABLE_ADDRESS,

		/** Another reason, given by the cause. */
		OTHER

	}

	/**
	 * Creates the exception, telling the reason from the cause.
	 * @param address the address asked for
	 * @param provider the RDMA provider's name
	 * @param cause what the provider threw
	 */
	public RpcServerListenException(InetSocketAddress address, String provider, RuntimeException cause) {
		super("The RPC-over-RDMA server could not listen on " + address + " with provider " + provider + ": "
				+ cause.getMessage() + ". Choose another rpcrdma.server.address or rpcrdma.server.port (0 picks a free port)",
				cause);
		this.address = address;
		this.provider = provider;
		this.reason = reasonOf(address, cause);
	}

	private static Reason reasonOf(InetSocketAddress address, Throwable cause) {
		for (Throwable t = cause; t != null; t = t.getCause()) {
			if (t instanceof BindException) {
				return Reason.ADDRESS_IN_USE;
			}
		}
		return address.isUnresolved() ? Reason.UNRESOLVABLE_ADDRESS : Reason.OTHER;
	}

	/**
	 * The address the server was to listen on.
	 * @return the address
	 */
	public InetSocketAddress address() {
		return this.address;
	}

	/**
	 * The RDMA provider.
	 * @return its name
	 */
	public String provider() {
		return this.provider;
	}

	/**
	 * Why the server could not listen.
	 * @return the reason
	 */
	public Reason reason() {
		return this.reason;
	}

}
