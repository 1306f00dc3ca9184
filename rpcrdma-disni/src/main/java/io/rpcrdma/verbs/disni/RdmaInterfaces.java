package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Which network interfaces belong to which RDMA device, from sysfs, to pick the address
 * that selects a device when {@link DisniSettings#LOCAL_ADDRESS} is not set. rdma_cm
 * chooses the device by IP address; DiSNI supports IPv4 only.
 * <p>
 * Three places name an RDMA device's network interfaces, depending on the kind:
 * {@code ports/N/gid_attrs/ndevs/*} (RoCE, Soft-RoCE), {@code device/net/*} (the PCI
 * function's interfaces, also IPoIB on InfiniBand) and {@code parent} (Soft-RoCE and
 * soft iWARP). Linux 6.1's siw has none of them; its {@code node_guid} is the EUI-64 of its
 * interface's MAC address, as Soft-RoCE's is, so that names the interface last.
 */
final class RdmaInterfaces {

	private final Path sysClassInfiniband;

	private final Function<String, Optional<InetAddress>> ipv4OfInterface;

	private final Supplier<Map<String, String>> guidsOfInterfaces;

	RdmaInterfaces(Path sysClassInfiniband, Function<String, Optional<InetAddress>> ipv4OfInterface) {
		this(sysClassInfiniband, ipv4OfInterface, Map::of);
	}

	RdmaInterfaces(Path sysClassInfiniband, Function<String, Optional<InetAddress>> ipv4OfInterface,
			Supplier<Map<String, String>> guidsOfInterfaces) {
		this.sysClassInfiniband = sysClassInfiniband;
		this.ipv4OfInterface = ipv4OfInterface;
		this.guidsOfInterfaces = guidsOfInterfaces;
	}

	/**
	 * The real sysfs and network interfaces.
	 * @return the lookup
	 */
	static RdmaInterfaces system() {
		return new RdmaInterfaces(Path.of("/sys/class/infiniband"), RdmaInterfaces::firstIpv4Address,
				RdmaInterfaces::guidsOfInterfaces);
	}

	/**
	 * Whether a device is an iWARP adapter (node type RNIC), whose completions follow RFC 5040
	 * rather than InfiniBand's acknowledgements (ProviderCapabilities#remoteErrorsAtInitiator).
	 * @param device the device name
	 * @return {@code true} for iWARP, {@code false} for InfiniBand, RoCE or an unknown device
	 */
	boolean isIwarp(String device) {
		return read(this.sysClassInfiniband.resolve(device).resolve("node_type")).filter((type) -> type.startsWith("4"))
			.isPresent();
	}

	/**
	 * The network interface names of each RDMA device.
	 * @return device name to interface names, both sorted by name
	 */
	Map<String, List<String>> interfacesByDevice() {
		Map<String, List<String>> result = new LinkedHashMap<>();
		for (String device : list(this.sysClassInfiniband)) {
			Path dir = this.sysClassInfiniband.resolve(device);
			Set<String> names = new LinkedHashSet<>();
			for (String port : list(dir.resolve("ports"))) {
				Path ndevs = dir.resolve("ports").resolve(port).resolve("gid_attrs").resolve("ndevs");
				for (String entry : list(ndevs)) {
					read(ndevs.resolve(entry)).ifPresent(names::add);
				}
			}
			names.addAll(list(dir.resolve("device").resolve("net")));
			read(dir.resolve("parent")).ifPresent(names::add);
			if (names.isEmpty()) {
				read(dir.resolve("node_guid")).ifPresent((guid) -> this.guidsOfInterfaces.get()
					.forEach((name, interfaceGuid) -> {
						if (interfaceGuid.equalsIgnoreCase(guid)) {
							names.add(name);
						}
					}));
			}
			result.put(device, new ArrayList<>(names));
		}
		return result;
	}

	/**
	 * The first IPv4 address of an interface that has an RDMA device, in device order.
	 * @return the address and the device, if any interface has one
	 */
	Optional<Selection> firstAddress() {
		for (Map.Entry<String, List<String>> entry : interfacesByDevice().entrySet()) {
			for (String name : entry.getValue()) {
				Optional<InetAddress> address = this.ipv4OfInterface.apply(name);
				if (address.isPresent()) {
					return Optional.of(new Selection(entry.getKey(), name, address.get()));
				}
			}
		}
		return Optional.empty();
	}

	/**
	 * The device an interface address belongs to, for messages.
	 * @param address an interface address
	 * @return the device name, if known
	 */
	Optional<String> deviceOf(InetAddress address) {
		for (Map.Entry<String, List<String>> entry : interfacesByDevice().entrySet()) {
			for (String name : entry.getValue()) {
				if (this.ipv4OfInterface.apply(name).filter(address::equals).isPresent()) {
					return Optional.of(entry.getKey());
				}
			}
		}
		return Optional.empty();
	}

	/**
	 * A chosen device and the address that selects it.
	 *
	 * @param device the RDMA device, for example {@code mlx5_0} or {@code rxe0}
	 * @param networkInterface the network interface, for example {@code eth0}
	 * @param address its IPv4 address
	 */
	record Selection(String device, String networkInterface, InetAddress address) {
	}

	private static List<String> list(Path directory) {
		if (!Files.isDirectory(directory)) {
			return List.of();
		}
		try (Stream<Path> entries = Files.list(directory)) {
			return entries.map((p) -> p.getFileName().toString()).sorted().toList();
		}
		catch (IOException | SecurityException ex) {
			return List.of();
		}
	}

	private static Optional<String> read(Path file) {
		try {
			String value = Files.readString(file).trim();
			return value.isEmpty() ? Optional.empty() : Optional.of(value);
		}
		catch (IOException | SecurityException ex) {
			return Optional.empty();
		}
	}

	/**
	 * Each interface's MAC address as the EUI-64 a software RDMA device on it takes for its node
	 * GUID (Linux's addrconf_addr_eui48: ff:fe in the middle, the universal/local bit flipped),
	 * in sysfs's {@code xxxx:xxxx:xxxx:xxxx} form.
	 * @return interface name to GUID
	 */
	static Map<String, String> guidsOfInterfaces() {
		Map<String, String> guids = new LinkedHashMap<>();
		try {
			for (NetworkInterface networkInterface : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
				byte[] mac = networkInterface.getHardwareAddress();
				if (mac != null && mac.length == 6) {
					guids.put(networkInterface.getName(), eui64(mac));
				}
			}
		}
		catch (java.net.SocketException ex) {
			// no interfaces to match
		}
		return guids;
	}

	static String eui64(byte[] mac) {
		int[] b = { (mac[0] & 0xff) ^ 0x02, mac[1] & 0xff, mac[2] & 0xff, 0xff, 0xfe, mac[3] & 0xff, mac[4] & 0xff,
				mac[5] & 0xff };
		return String.format("%02x%02x:%02x%02x:%02x%02x:%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
	}

	private static Optional<InetAddress> firstIpv4Address(String interfaceName) {
		try {
			NetworkInterface networkInterface = NetworkInterface.getByName(interfaceName);
			if (networkInterface == null || !networkInterface.isUp()) {
				return Optional.empty();
			}
			Enumeration<InetAddress> addresses = networkInterface.getInetAddresses();
			while (addresses.hasMoreElements()) {
				InetAddress address = addresses.nextElement();
				if (address instanceof Inet4Address) {
					return Optional.of(address);
				}
			}
			return Optional.empty();
		}
		catch (SocketException ex) {
			return Optional.empty();
		}
	}

}
