package io.rpcrdma.spring.boot.autoconfigure.metrics;

/**
 * Reads a client's endpoint string: {@code host:port}, {@code name/address:port} or
 * {@code [v6]:port}, or a balanced client's {@code client (instance)} when it has one instance
 * (with several, which one serves a call is not known when its observation starts).
 */
final class Endpoints {

	record HostPort(String host, int port) {
	}

	private Endpoints() {
	}

	/**
	 * @param endpoint the endpoint, may be {@code null}
	 * @return its host and port, or {@code null} if it names no port
	 */
	static HostPort parse(String endpoint) {
		if (endpoint == null) {
			return null;
		}
		String value = endpoint.trim();
		int open = value.indexOf(" (");
		if (open >= 0 && value.endsWith(")")) {
			value = value.substring(open + 2, value.length() - 1);
			if (value.contains(", ")) {
				return null;
			}
		}
		int slash = value.lastIndexOf('/');
		if (slash >= 0) {
			// InetSocketAddress#toString: "name/address:port"; the name if there is one.
			value = (slash > 0) ? value.substring(0, slash) + value.substring(value.lastIndexOf(':'))
					: value.substring(1);
		}
		int colon = value.lastIndexOf(':');
		if (colon <= 0 || colon == value.length() - 1) {
			return null;
		}
		String host = value.substring(0, colon);
		if (host.startsWith("[") && host.endsWith("]")) {
			host = host.substring(1, host.length() - 1);
		}
		try {
			int port = Integer.parseInt(value.substring(colon + 1));
			return (port >= 0 && port <= 65535) ? new HostPort(host, port) : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
