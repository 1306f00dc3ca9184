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
import java.util.stream.Stream;

/**
 * Which network interfaces belong to which RDMA device, from sysfs, to pick the address
 * that selects a device when {@link DisniSettings#LOCAL_ADDRESS} is not set. rdma_cm
 * chooses the device by IP address; DiSNI supports IPv4 only.
 * <p>
 * Three places name an RDMA device's network interfaces, depending on the kind:
 * {@code ports/N/gid_attrs/ndevs/*} (RoCE, Soft-RoCE), {@code device/net/*} (the PCI
 * function's interfaces, also IPoIB on InfiniBand) and {@code parent} (Soft-RoCE and
 * soft iWARP).
 */
final class RdmaInterfaces {

	private final Path sysClassInfiniband;

	private final Function<String, Optional<InetAddress>> ipv4OfInterface;

	RdmaInterfaces(Path sysClassInfiniband, Function<String, Optional<InetAddress>> ipv4OfInterface) {
		this.sysClassInfiniband = sysClassInfiniband;
		this.ipv4OfInterface = ipv4OfInterface;
	}

	/**
	 * The real sysfs and network interfaces.
	 * @return the lookup
	 */
	static RdmaInterfaces system() {
		return new RdmaInterfaces(Path.of("/sys/class/infiniband"), RdmaInterfaces::firstIpv4Address);
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
