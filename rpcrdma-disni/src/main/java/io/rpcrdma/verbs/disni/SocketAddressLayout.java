package io.rpcrdma.verbs.disni;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Linux's {@code struct sockaddr_in} and {@code struct sockaddr_in6} (ip(7), ipv6(7)), laid out
 * in a buffer for rpcrdma's address natives ({@link CmAddressNatives}): the family in host byte
 * order, the port in network byte order, then the IPv4 address, or the flow label, the IPv6
 * address and the scope id in host byte order.
 */
final class SocketAddressLayout {

	/** {@code AF_INET} on Linux. */
	static final short AF_INET = 2;

	/** {@code AF_INET6} on Linux. */
	static final short AF_INET6 = 10;

	/** {@code sizeof(struct sockaddr_in)}. */
	static final int IN_SIZE = 16;

	/** {@code sizeof(struct sockaddr_in6)}, the larger. */
	static final int IN6_SIZE = 28;

	private SocketAddressLayout() {
	}

	/**
	 * Lays out an address.
	 * @param address a resolved IPv4 or IPv6 socket address
	 * @param out a buffer of at least {@link #IN6_SIZE} bytes; written from 0, order unchanged
	 * @return the bytes written
	 */
	static int write(InetSocketAddress address, ByteBuffer out) {
		InetAddress ip = address.getAddress();
		if (ip == null) {
			throw new IllegalArgumentException("Unresolved address " + address + ": resolve it first");
		}
		ByteBuffer host = out.duplicate().order(ByteOrder.nativeOrder());
		int size = (ip instanceof Inet6Address) ? IN6_SIZE : IN_SIZE;
		for (int i = 0; i < size; i++) {
			host.put(i, (byte) 0);
		}
		host.putShort(0, (ip instanceof Inet6Address) ? AF_INET6 : AF_INET);
		host.put(2, (byte) (address.getPort() >>> 8));
		host.put(3, (byte) address.getPort());
		if (ip instanceof Inet6Address ip6) {
			host.put(8, ip6.getAddress());
			host.putInt(24, ip6.getScopeId());
		}
		else {
			host.put(4, ip.getAddress());
		}
		return size;
	}

	/**
	 * Reads an address laid out by the kernel.
	 * @param in the {@code sockaddr}, from 0
	 * @param length its length
	 * @return the address
	 * @throws IllegalArgumentException if it is neither IPv4 nor IPv6 or too short
	 */
	static InetSocketAddress read(ByteBuffer in, int length) {
		ByteBuffer host = in.duplicate().order(ByteOrder.nativeOrder());
		short family = (length >= 2) ? host.getShort(0) : -1;
		int port = ((host.get(2) & 0xff) << 8) | (host.get(3) & 0xff);
		try {
			if (family == AF_INET && length >= IN_SIZE) {
				byte[] ip = new byte[4];
				host.get(4, ip);
				return new InetSocketAddress(InetAddress.getByAddress(ip), port);
			}
			if (family == AF_INET6 && length >= IN6_SIZE) {
				byte[] ip = new byte[16];
				host.get(8, ip);
				int scope = host.getInt(24);
				// A v4-mapped address comes back as the IPv4 address, as Java's sockets give it.
				InetAddress address = (scope != 0) ? Inet6Address.getByAddress(null, ip, scope)
						: InetAddress.getByAddress(ip);
				return new InetSocketAddress(address, port);
			}
		}
		catch (UnknownHostException ex) {
			throw new IllegalArgumentException("Malformed socket address: " + ex.getMessage(), ex);
		}
		throw new IllegalArgumentException("Not an IPv4 or IPv6 socket address: family " + family + ", " + length
				+ " bytes");
	}

	/**
	 * Whether an address is IPv4 (DiSNI 2.1's own calls can carry it).
	 * @param address a socket address
	 * @return {@code true} for IPv4
	 */
	static boolean isIpv4(InetSocketAddress address) {
		return address.getAddress() instanceof Inet4Address;
	}

}
