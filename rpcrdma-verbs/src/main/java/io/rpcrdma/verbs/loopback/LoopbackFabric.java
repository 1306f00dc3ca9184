package io.rpcrdma.verbs.loopback;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.verbs.RdmaException;

/**
 * The in-JVM "network" of the loopback provider: listening addresses, shared by every
 * loopback provider instance in the JVM, so two providers act as two hosts. An address is
 * a host string (a namespace name; it need not resolve) plus a port.
 */
final class LoopbackFabric {

	private static final int FIRST_EPHEMERAL_PORT = 49152;

	private static final int PORT_COUNT = 65536 - FIRST_EPHEMERAL_PORT;

	private static final ConcurrentMap<String, LoopbackListener> listeners = new ConcurrentHashMap<>();

	private static final AtomicInteger nextPort = new AtomicInteger();

	private LoopbackFabric() {
	}

	static InetSocketAddress bind(InetSocketAddress requested, LoopbackListener listener) {
		String host = host(requested);
		int port = requested.getPort();
		if (port != 0) {
			if (listeners.putIfAbsent(key(host, port), listener) != null) {
				throw new RdmaException("Loopback address " + host + ":" + port
						+ " is already in use; close the other listener or listen on port 0 for a free port");
			}
			return InetSocketAddress.createUnresolved(host, port);
		}
		for (int i = 0; i < PORT_COUNT; i++) {
			int candidate = FIRST_EPHEMERAL_PORT + Math.floorMod(nextPort.getAndIncrement(), PORT_COUNT);
			if (listeners.putIfAbsent(key(host, candidate), listener) == null) {
				return InetSocketAddress.createUnresolved(host, candidate);
			}
		}
		throw new RdmaException("No free loopback port left on " + host + "; close unused listeners");
	}

	static void unbind(InetSocketAddress address, LoopbackListener listener) {
		listeners.remove(key(host(address), address.getPort()), listener);
	}

	static LoopbackListener lookup(InetSocketAddress address) {
		return listeners.get(key(host(address), address.getPort()));
	}

	static InetSocketAddress clientAddress() {
		return InetSocketAddress.createUnresolved("loopback-client",
				FIRST_EPHEMERAL_PORT + Math.floorMod(nextPort.getAndIncrement(), PORT_COUNT));
	}

	private static String host(InetSocketAddress address) {
		return address.getHostString().toLowerCase(Locale.ROOT);
	}

	private static String key(String host, int port) {
		return host + ":" + port;
	}

}
