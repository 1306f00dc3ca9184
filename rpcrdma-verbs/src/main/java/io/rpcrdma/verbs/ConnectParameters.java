package io.rpcrdma.verbs;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

import io.rpcrdma.log.Durations;

/**
 * How to connect (rdma_cm {@code rdma_resolve_addr} + {@code rdma_connect} with
 * {@code rdma_conn_param}).
 *
 * @param remoteAddress where the peer listens; for the loopback provider the host string
 * names an in-JVM namespace and need not resolve
 * @param privateData sent with the connection request
 * @param timeout how long to wait for the peer to accept or reject
 * @param listener receives this connection's events
 */
public record ConnectParameters(InetSocketAddress remoteAddress, PrivateData privateData, Duration timeout,
		ConnectionEventListener listener) {

	/** The default connect timeout. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

	/**
	 * Validates the parameters.
	 * @param remoteAddress where the peer listens
	 * @param privateData sent with the request
	 * @param timeout how long to wait
	 * @param listener receives events
	 */
	public ConnectParameters {
		Objects.requireNonNull(remoteAddress, "remoteAddress");
		privateData = (privateData != null) ? privateData : PrivateData.EMPTY;
		timeout = (timeout != null) ? timeout : DEFAULT_TIMEOUT;
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("Connect timeout must be positive, got " + Durations.written(timeout));
		}
		listener = (listener != null) ? listener : ConnectionEventListener.NONE;
	}

	/**
	 * Parameters with no private data, the default timeout and no listener.
	 * @param remoteAddress where the peer listens
	 * @return the parameters
	 */
	public static ConnectParameters to(InetSocketAddress remoteAddress) {
		return new ConnectParameters(remoteAddress, PrivateData.EMPTY, DEFAULT_TIMEOUT, ConnectionEventListener.NONE);
	}

	/**
	 * A copy with private data.
	 * @param data the private data
	 * @return the new parameters
	 */
	public ConnectParameters withPrivateData(PrivateData data) {
		return new ConnectParameters(this.remoteAddress, data, this.timeout, this.listener);
	}

	/**
	 * A copy with a timeout.
	 * @param value the timeout
	 * @return the new parameters
	 */
	public ConnectParameters withTimeout(Duration value) {
		return new ConnectParameters(this.remoteAddress, this.privateData, value, this.listener);
	}

	/**
	 * A copy with an event listener.
	 * @param value the listener
	 * @return the new parameters
	 */
	public ConnectParameters withListener(ConnectionEventListener value) {
		return new ConnectParameters(this.remoteAddress, this.privateData, this.timeout, value);
	}

}
