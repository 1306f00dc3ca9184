package io.rpcrdma.interop;

import java.util.ArrayList;
import java.util.List;

/**
 * QEMU's command line for the lab guest: no display, the serial console on standard output,
 * user networking whose only openings are 127.0.0.1 forwards ({@code restrict=on} keeps
 * the guest off every other address), and read-only virtio-9p shares of host directories
 * ({@link GuestShare}; not networking).
 */
final class QemuCommand {

	/** How long the guest lives at most, should the JVM that started it die without stopping it. */
	static final int LIFETIME_SECONDS = 3600;

	private QemuCommand() {
	}

	static List<String> of(String qemu, LabImage image, LabPorts ports, Accelerator accelerator,
			List<GuestShare> shares) {
		StringBuilder network = new StringBuilder("user,id=n0,restrict=on");
		forward(network, ports.agent(), LabGuest.AGENT_PORT);
		forward(network, ports.peer(), LabGuest.PEER_PORT);
		forward(network, ports.nfsRdma(), 20049);
		forward(network, ports.nfsTcp(), 2049);
		forward(network, ports.mountd(), 20048);
		for (int slot : ports.hostSlots()) {
			// One socat per guest connection, to the same port on the host's loopback.
			network.append(",guestfwd=tcp:").append(LabPorts.HOST_FROM_GUEST).append(':').append(slot)
				.append("-cmd:socat - TCP:127.0.0.1:").append(slot);
		}
		List<String> command = new ArrayList<>(List.of(qemu, "-accel", accelerator.option(),
				"-m", "2048", "-smp", "1", "-nodefaults", "-display", "none", "-serial", "stdio", "-no-reboot",
				"-kernel", image.kernel().toString(), "-initrd", image.initramfs().toString(), "-append",
				"console=ttyS0 panic=-1 edd=off lab.lifetime=" + LIFETIME_SECONDS, "-netdev", network.toString(),
				"-device", "virtio-net-pci,netdev=n0"));
		String netdump = System.getProperty("rpcrdma.lab.netdump", "");
		if (!netdump.isBlank()) {
			// Every frame between the guest's NIC and QEMU's user networking, as a pcap file:
			// the guest's side of a forwarded connection, which a capture on the host's
			// loopback cannot see (docs/interop.md, "Debugging the lab").
			command.addAll(List.of("-object", "filter-dump,id=dump0,netdev=n0,file=" + netdump));
		}
		for (GuestShare share : shares) {
			command.add("-virtfs");
			command.add(share.virtfs());
		}
		return command;
	}

	private static void forward(StringBuilder network, int hostPort, int guestPort) {
		network.append(",hostfwd=tcp:127.0.0.1:").append(hostPort).append("-:").append(guestPort);
	}

}
