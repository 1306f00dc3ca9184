package io.rpcrdma.verbs.disni;

import java.net.InetSocketAddress;
import java.time.Duration;

import io.rpcrdma.verbs.ConnectTimeoutException;
import io.rpcrdma.verbs.ConnectionFailedException;
import io.rpcrdma.verbs.ConnectionRefusedException;
import io.rpcrdma.verbs.ConnectionRejectedException;
import io.rpcrdma.verbs.PrivateData;

/**
 * The rdma_cm event types ({@code enum rdma_cm_event_type}, which DiSNI's
 * {@code RdmaCmEvent.EventType} mirrors by ordinal) and what a failed connection attempt
 * becomes in the SPI.
 * <p>
 * DiSNI 2.1 reports neither the event status nor private data; a reject's private data
 * comes through rpcrdma's own natives ({@link DisniCmExtensions}) when libdisni has them.
 * On InfiniBand and RoCE a request to a port where nothing listens is rejected by the peer's
 * connection manager just like one the application refused (then without private data).
 */
final class CmEvents {

	static final int ADDR_RESOLVED = 0;

	static final int ADDR_ERROR = 1;

	static final int ROUTE_RESOLVED = 2;

	static final int ROUTE_ERROR = 3;

	static final int CONNECT_REQUEST = 4;

	static final int CONNECT_RESPONSE = 5;

	static final int CONNECT_ERROR = 6;

	static final int UNREACHABLE = 7;

	static final int REJECTED = 8;

	static final int ESTABLISHED = 9;

	static final int DISCONNECTED = 10;

	static final int DEVICE_REMOVAL = 11;

	static final int ADDR_CHANGE = 14;

	static final int TIMEWAIT_EXIT = 15;

	private static final String[] NAMES = { "RDMA_CM_EVENT_ADDR_RESOLVED", "RDMA_CM_EVENT_ADDR_ERROR",
			"RDMA_CM_EVENT_ROUTE_RESOLVED", "RDMA_CM_EVENT_ROUTE_ERROR", "RDMA_CM_EVENT_CONNECT_REQUEST",
			"RDMA_CM_EVENT_CONNECT_RESPONSE", "RDMA_CM_EVENT_CONNECT_ERROR", "RDMA_CM_EVENT_UNREACHABLE",
			"RDMA_CM_EVENT_REJECTED", "RDMA_CM_EVENT_ESTABLISHED", "RDMA_CM_EVENT_DISCONNECTED",
			"RDMA_CM_EVENT_DEVICE_REMOVAL", "RDMA_CM_EVENT_MULTICAST_JOIN", "RDMA_CM_EVENT_MULTICAST_ERROR",
			"RDMA_CM_EVENT_ADDR_CHANGE", "RDMA_CM_EVENT_TIMEWAIT_EXIT" };

	private CmEvents() {
	}

	static String name(int event) {
		return (event >= 0 && event < NAMES.length) ? NAMES[event] : "rdma_cm event " + event;
	}

	/**
	 * Whether an event ends a connection attempt that is not established yet. DiSNI's own
	 * endpoints ignore most of these and leave {@code connect()} waiting forever (DiSNI
	 * issue 41); here each one fails the attempt.
	 * @param event the event type
	 * @return {@code true} for a failure
	 */
	static boolean failsConnectAttempt(int event) {
		return switch (event) {
			case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED, DISCONNECTED, DEVICE_REMOVAL -> true;
			default -> false;
		};
	}

	/**
	 * What a failure event means for the requester.
	 * @param event a failure event type
	 * @param remote where the requester wanted to connect
	 * @return the exception its connect future completes with
	 */
	static ConnectionFailedException connectFailure(int event, InetSocketAddress remote) {
		return connectFailure(event, remote, PrivateData.EMPTY);
	}

	/**
	 * What a failure event means for the requester.
	 * @param event a failure event type
	 * @param remote where the requester wanted to connect
	 * @param rejectData the private data of a REJECTED event (read through
	 * {@link DisniCmExtensions}), empty for other events or when none came
	 * @return the exception its connect future completes with
	 */
	static ConnectionFailedException connectFailure(int event, InetSocketAddress remote, PrivateData rejectData) {
		return switch (event) {
			case REJECTED -> new ConnectionRejectedException("The peer at " + remote
					+ " rejected the connection request, or nothing listens on that port (InfiniBand and RoCE "
					+ "answer both with a reject" + (rejectData.isEmpty() ? "; it came without private data)"
							: ", this one with " + rejectData.length() + " bytes of private data)"),
					rejectData);
			case ADDR_ERROR -> new ConnectionRefusedException("Cannot resolve " + remote
					+ " to an RDMA device (" + name(event) + "); the address must be reachable through an interface "
					+ "that has an RDMA device (check 'rdma link' and the routing table)");
			case ROUTE_ERROR -> new ConnectionRefusedException("No RDMA route to " + remote + " (" + name(event)
					+ "); check the subnet manager (InfiniBand) or the IP route and GID table (RoCE)");
			case UNREACHABLE -> new ConnectionRefusedException("The peer at " + remote
					+ " is unreachable or did not answer the connection request (" + name(event) + ")");
			case CONNECT_ERROR -> new ConnectionRefusedException("Establishing the connection to " + remote
					+ " failed (" + name(event) + "); the peer may have dropped the request or its queue pair failed");
			case DISCONNECTED -> new ConnectionRefusedException(
					"The peer at " + remote + " disconnected before the connection was established");
			case DEVICE_REMOVAL -> new ConnectionRefusedException(
					"The RDMA device was removed while connecting to " + remote);
			default -> new ConnectionRefusedException(
					"Connecting to " + remote + " failed with " + name(event));
		};
	}

	/**
	 * The failure when neither accept nor reject arrived in time; the provider enforces the
	 * timeout itself because DiSNI's connect has none.
	 * @param remote where the requester wanted to connect
	 * @param timeout the connect timeout
	 * @return the exception
	 */
	static ConnectTimeoutException connectTimeout(InetSocketAddress remote, Duration timeout) {
		return new ConnectTimeoutException("The peer at " + remote + " did not accept or reject the connection "
				+ "request within " + timeout.toMillis() + " ms; check that it is up and answers connection requests, "
				+ "or raise the connect timeout");
	}

}
