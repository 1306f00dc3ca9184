package io.rpcrdma.spring.boot.autoconfigure;

import java.net.InetSocketAddress;

/**
 * A server address as written in configuration: {@code host:port}, with IPv6 literals in
 * brackets ({@code [::1]:20049}).
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
