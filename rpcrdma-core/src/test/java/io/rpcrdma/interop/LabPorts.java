package io.rpcrdma.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * The 127.0.0.1 ports through which the host reaches the lab guest (QEMU {@code hostfwd}) and
 * the guest reaches the host ({@code guestfwd}). All are chosen free when the guest boots:
 * QEMU's user networking cannot add a guest-to-host forward later.
 *
 * @param agent the guest's command agent (guest port {@value LabGuest#AGENT_PORT})
 * @param peer a guest listener for peer programs such as rping (guest port
 * {@value LabGuest#PEER_PORT})
 * @param nfsRdma nfsd's RPC-over-RDMA listener (guest port 20049, RFC 8267 §6)
 * @param nfsTcp nfsd's TCP listener (guest port 2049)
 * @param mountd rpc.mountd over TCP (guest port 20048)
 * @param hostSlots host ports the guest reaches as {@code 10.0.2.100:<same port>}; a test binds
 * its listener to one of them on 127.0.0.1
 */
public record LabPorts(int agent, int peer, int nfsRdma, int nfsTcp, int mountd, List<Integer> hostSlots) {

	/** The address under which the guest sees the host's slots (QEMU slirp's guestfwd). */
	public static final String HOST_FROM_GUEST = "10.0.2.100";

	/** How many guest-to-host slots a guest gets. */
	static final int SLOTS = 6;

	/**
	 * Picks free loopback ports.
	 * @return the ports
	 */
	static LabPorts pickFree() {
		List<Integer> ports = new ArrayList<>();
		List<ServerSocket> held = new ArrayList<>();
		try {
			// Held open together so that no two of them are the same port.
			for (int i = 0; i < 5 + SLOTS; i++) {
				ServerSocket socket = new ServerSocket();
				held.add(socket);
				socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
				ports.add(socket.getLocalPort());
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not find free ports on 127.0.0.1", ex);
		}
		finally {
			held.forEach(LabPorts::closeQuietly);
		}
		return new LabPorts(ports.get(0), ports.get(1), ports.get(2), ports.get(3), ports.get(4),
				List.copyOf(ports.subList(5, ports.size())));
	}

	/**
	 * The host-side address of a guest service.
	 * @param port one of this record's host ports
	 * @return 127.0.0.1 and that port
	 */
	public static InetSocketAddress loopback(int port) {
		return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
	}

	private static void closeQuietly(ServerSocket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// nothing was accepted on it
		}
	}

}
