package io.rpcrdma.spring.boot.autoconfigure;

import java.net.InetSocketAddress;

/**
 * A server address as written in configuration: {@code host:port}, with IPv6 literals in
 * brackets ({@code [::1]:20049}); or a host's rpcbind, {@code rpcbind://host[:port]}, through
 * which a client finds the server (RFC 5666 §10).
 *
 * @param host the host name or literal, without brackets
 * @param port the port, 1 to 65535
 */
public record RpcRdmaAddress(String host, int port) {

	/** The provider whose addresses are in-JVM names rather than resolvable hosts. */
	public static final String LOOPBACK_PROVIDER = "loopback";

	/**
	 * Validates.
	 * @throws IllegalArgumentException if the host is blank or the port out of range
	 */
	public RpcRdmaAddress {
		if (host == null || host.isBlank()) {
			throw new IllegalArgumentException("the host is missing; write host:port, for example rpc.example.com:20049");
		}
		if (port < 1 || port > 65535) {
			throw new IllegalArgumentException("the port must be between 1 and 65535, got " + port);
		}
	}

	/** How a client address names a host's rpcbind rather than a server. */
	public static final String RPCBIND_SCHEME = "rpcbind://";

	/** rpcbind's port when {@code rpcbind://host} names none (RFC 1833). */
	public static final int RPCBIND_PORT = 111;

	/**
	 * @param text a configured client address
	 * @return whether it is {@code rpcbind://host[:port]}, case aside
	 */
	public static boolean isRpcbind(String text) {
		return text != null && text.trim().regionMatches(true, 0, RPCBIND_SCHEME, 0, RPCBIND_SCHEME.length());
	}

	/**
	 * Parses {@code rpcbind://host[:port]}, the port 111 when not given.
	 * @param text the configured value
	 * @return the rpcbind's address
	 * @throws IllegalArgumentException saying what is wrong with the text
	 */
	public static RpcRdmaAddress parseRpcbind(String text) {
		if (!isRpcbind(text)) {
			throw new IllegalArgumentException("'" + text + "' is not rpcbind://host[:port]");
		}
		String value = text.trim();
		String rest = value.substring(RPCBIND_SCHEME.length());
		if (rest.isEmpty()) {
			throw new IllegalArgumentException("'" + value + "' names no host; write rpcbind://host or rpcbind://host:port");
		}
		if (rest.indexOf('/') >= 0 || rest.indexOf('?') >= 0 || rest.indexOf('#') >= 0) {
			throw new IllegalArgumentException("'" + value + "' has more than a host and port; write rpcbind://host or "
					+ "rpcbind://host:port (the program and version come from the service interface)");
		}
		boolean bracketed = rest.startsWith("[");
		int close = bracketed ? rest.indexOf(']') : -1;
		if (bracketed && close < 0) {
			throw new IllegalArgumentException("'" + value + "' opens an IPv6 bracket it does not close");
		}
		boolean hasPort = bracketed ? close < rest.length() - 1 : rest.indexOf(':') >= 0;
		if (!bracketed && rest.indexOf(':') != rest.lastIndexOf(':')) {
			throw new IllegalArgumentException("'" + value + "' has an IPv6 host without brackets; write rpcbind://[host]");
		}
		return hasPort ? parse(rest) : new RpcRdmaAddress(bracketed ? rest.substring(1, close) : rest, RPCBIND_PORT);
	}

	/**
	 * Parses {@code host:port}.
	 * @param text the configured value
	 * @return the address
	 * @throws IllegalArgumentException saying what is wrong with the text
	 */
	public static RpcRdmaAddress parse(String text) {
		if (text == null || text.isBlank()) {
			throw new IllegalArgumentException("the address is empty; write host:port, for example rpc.example.com:20049");
		}
		String value = text.trim();
		int colon = value.lastIndexOf(':');
		if (colon <= 0 || colon == value.length() - 1) {
			throw new IllegalArgumentException(
					"'" + value + "' is not host:port; write it as host:port, for example rpc.example.com:20049");
		}
		String host = value.substring(0, colon);
		if (host.startsWith("[") && host.endsWith("]")) {
			host = host.substring(1, host.length() - 1);
		}
		else if (host.indexOf(':') >= 0) {
			throw new IllegalArgumentException("'" + value + "' has an IPv6 host without brackets; write [" + host + "]:"
					+ value.substring(colon + 1));
		}
		int port;
		try {
			port = Integer.parseInt(value.substring(colon + 1));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("'" + value + "' has a port that is not a number");
		}
		return new RpcRdmaAddress(host, port);
	}

	/**
	 * The socket address to connect to with a provider: the loopback provider's hosts are
	 * in-JVM names and stay unresolved, every other provider needs a resolved address.
	 * @param providerName the name of the provider in use
	 * @return the socket address
	 */
	public InetSocketAddress toSocketAddress(String providerName) {
		return LOOPBACK_PROVIDER.equalsIgnoreCase(providerName) ? InetSocketAddress.createUnresolved(this.host, this.port)
				: new InetSocketAddress(this.host, this.port);
	}

	@Override
	public String toString() {
		return (this.host.indexOf(':') >= 0 ? "[" + this.host + "]" : this.host) + ":" + this.port;
	}

}
