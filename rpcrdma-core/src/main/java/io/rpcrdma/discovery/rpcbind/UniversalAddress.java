package io.rpcrdma.discovery.rpcbind;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * An IP address and port as rpcbind writes it, a universal address (RFC 5665 §5.2.3, the
 * format RFC 5666 §12 gives the {@code rdma} and {@code rdma6} netids): the address in its
 * usual text, then the port's high and low bytes as two more dot-separated decimals.
 *
 * <pre>
 * 192.0.2.7.78.33        192.0.2.7, port 78 * 256 + 33 = 20001
 * fe80::1.0.111          fe80::1, port 111
 * </pre>
 *
 * Parsing never consults DNS: the IPv4 form is read digit by digit and the IPv6 form only
 * after its characters are known to be those of an address literal.
 *
 * @param address the host's address (no scope id: a universal address has none)
 * @param port the port, 0 to 65535
 */
public record UniversalAddress(InetAddress address, int port) {

	/**
	 * The longest universal address accepted: an IPv6 address with an embedded IPv4 one (45
	 * characters, RFC 4291 §2.2) and the two port fields ({@code .255.255}), with room to spare.
	 */
	public static final int MAX_LENGTH = 64;

	public UniversalAddress {
		Objects.requireNonNull(address, "address");
		if (port < 0 || port > 0xFFFF) {
			throw new IllegalArgumentException("port must be in [0, 65535] but was " + port);
		}
		if (address instanceof Inet6Address scoped && scoped.getScopeId() != 0) {
			// RFC 5665 has no place for a zone; the peer could not use it anyway.
			try {
				address = InetAddress.getByAddress(address.getAddress());
			}
			catch (UnknownHostException ex) {
				throw new IllegalStateException("a 16-byte address is always valid", ex);
			}
		}
	}

	/**
	 * @param socketAddress a resolved socket address
	 * @return its universal address
	 */
	public static UniversalAddress of(InetSocketAddress socketAddress) {
		if (socketAddress.isUnresolved()) {
			throw new IllegalArgumentException("cannot write a universal address for unresolved " + socketAddress
					+ ": rpcbind needs the numeric address");
		}
		return new UniversalAddress(socketAddress.getAddress(), socketAddress.getPort());
	}

	/**
	 * Reads a universal address of an IP netid.
	 * @param text the address as rpcbind carries it
	 * @return the address and port
	 * @throws MalformedUniversalAddressException saying what is wrong
	 */
	public static UniversalAddress parse(String text) {
		Objects.requireNonNull(text, "text");
		if (text.length() > MAX_LENGTH) {
			throw new MalformedUniversalAddressException(text, "longer than " + MAX_LENGTH + " characters");
		}
		int low = text.lastIndexOf('.');
		int high = (low > 0) ? text.lastIndexOf('.', low - 1) : -1;
		if (high <= 0) {
			throw new MalformedUniversalAddressException(text, "no host followed by .p1.p2");
		}
		int p1 = octet(text, high + 1, low, "port high byte p1");
		int p2 = octet(text, low + 1, text.length(), "port low byte p2");
		String host = text.substring(0, high);
		InetAddress address = (host.indexOf(':') >= 0) ? ipv6(text, host) : ipv4(text, host);
		return new UniversalAddress(address, (p1 << 8) | p2);
	}

	/** @return this address as a socket address to connect to */
	public InetSocketAddress socketAddress() {
		return new InetSocketAddress(this.address, this.port);
	}

	/** @return whether the address is the wildcard (0.0.0.0 or ::), i.e. "the host you asked" */
	public boolean isWildcard() {
		return this.address.isAnyLocalAddress();
	}

	/** @return the netid a server at this address registers under (RFC 5666 §12) */
	public RdmaNetid rdmaNetid() {
		return RdmaNetid.of(this.address);
	}

	/** @return the universal address text, IPv6 in the compressed form of RFC 5952 §4 */
	public String format() {
		String host = (this.address instanceof Inet4Address) ? this.address.getHostAddress()
				: compressed(this.address.getAddress());
		return host + "." + (this.port >>> 8) + "." + (this.port & 0xFF);
	}

	@Override
	public String toString() {
		return format();
	}

	private static int octet(String text, int from, int to, String what) {
		int length = to - from;
		if (length < 1 || length > 3) {
			throw new MalformedUniversalAddressException(text, what + " must be 1 to 3 decimal digits");
		}
		int value = 0;
		for (int i = from; i < to; i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				throw new MalformedUniversalAddressException(text, what + " has a character that is not a decimal digit");
			}
			value = value * 10 + (c - '0');
		}
		if (value > 255) {
			throw new MalformedUniversalAddressException(text, what + " " + value + " exceeds 255");
		}
		return value;
	}

	private static InetAddress ipv4(String text, String host) {
		byte[] bytes = new byte[4];
		int from = 0;
		for (int i = 0; i < 4; i++) {
			int dot = (i < 3) ? host.indexOf('.', from) : host.length();
			if (dot < 0) {
				throw new MalformedUniversalAddressException(text, "an IPv4 address needs four parts h1.h2.h3.h4");
			}
			bytes[i] = (byte) octet(text, from, dot, "IPv4 part h" + (i + 1));
			from = dot + 1;
		}
		try {
			return InetAddress.getByAddress(bytes);
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException("a 4-byte address is always valid", ex);
		}
	}

	private static InetAddress ipv6(String text, String host) {
		for (int i = 0; i < host.length(); i++) {
			char c = host.charAt(i);
			boolean allowed = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':'
					|| c == '.';
			if (!allowed) {
				// Also keeps InetAddress from ever seeing a name it would look up.
				throw new MalformedUniversalAddressException(text, "'" + c + "' cannot appear in an IPv6 address");
			}
		}
		try {
			// A literal with a colon is parsed as IPv6 text and never looked up.
			return InetAddress.getByName(host);
		}
		catch (UnknownHostException ex) {
			throw new MalformedUniversalAddressException(text, "'" + host + "' is not an IPv6 address");
		}
	}

	/** RFC 5952 §4: lower case, no leading zeros, the longest run of two or more zero groups as "::". */
	private static String compressed(byte[] bytes) {
		int[] groups = new int[8];
		for (int i = 0; i < 8; i++) {
			groups[i] = ((bytes[2 * i] & 0xFF) << 8) | (bytes[2 * i + 1] & 0xFF);
		}
		int bestStart = -1;
		int bestLength = 1;
		for (int i = 0; i < 8;) {
			if (groups[i] != 0) {
				i++;
				continue;
			}
			int start = i;
			while (i < 8 && groups[i] == 0) {
				i++;
			}
			if (i - start > bestLength) {
				bestStart = start;
				bestLength = i - start;
			}
		}
		StringBuilder text = new StringBuilder(39);
		for (int i = 0; i < 8; i++) {
			if (i == bestStart) {
				text.append("::");
				i += bestLength - 1;
				continue;
			}
			if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
				text.append(':');
			}
			text.append(Integer.toHexString(groups[i]));
		}
		return text.toString();
	}

	/** Shows peer-sent text in a message without control characters and without flooding it. */
	static String printable(String text) {
		StringBuilder shown = new StringBuilder(Math.min(text.length(), MAX_LENGTH) + 3);
		for (int i = 0; i < text.length() && i < MAX_LENGTH; i++) {
			char c = text.charAt(i);
			shown.append((c < 0x20 || c == 0x7F) ? '?' : c);
		}
		return (text.length() > MAX_LENGTH) ? shown.append("...").toString() : shown.toString();
	}

}
