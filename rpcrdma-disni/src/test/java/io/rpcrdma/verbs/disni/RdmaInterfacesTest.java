package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RdmaInterfacesTest {

	@TempDir
	Path sys;

	@Test
	void interfacesAreFoundWhereverTheKindOfDeviceNamesThem() throws IOException {
		// RoCE: the GID table names the interface.
		write("mlx5_0/ports/1/gid_attrs/ndevs/0", "enp65s0f0\n");
		write("mlx5_0/ports/1/gid_attrs/ndevs/1", "enp65s0f0\n");
		Files.createDirectories(this.sys.resolve("mlx5_0/device/net/enp65s0f0"));
		// InfiniBand: the PCI function's interface is IPoIB.
		Files.createDirectories(this.sys.resolve("mlx4_0/device/net/ib0"));
		// Soft-RoCE: the parent interface.
		write("rxe0/parent", "eth0\n");
		Map<String, List<String>> byDevice = new RdmaInterfaces(this.sys, (name) -> Optional.empty())
			.interfacesByDevice();
		assertThat(byDevice).containsOnlyKeys("mlx4_0", "mlx5_0", "rxe0");
		assertThat(byDevice.get("mlx5_0")).containsExactly("enp65s0f0");
		assertThat(byDevice.get("mlx4_0")).containsExactly("ib0");
		assertThat(byDevice.get("rxe0")).containsExactly("eth0");
	}

	@Test
	void theFirstInterfaceWithAnIpv4AddressSelectsTheDevice() throws IOException {
		Files.createDirectories(this.sys.resolve("mlx4_0/device/net/ib0"));
		write("rxe0/parent", "eth0");
		InetAddress address = InetAddress.getByName("192.0.2.10");
		RdmaInterfaces interfaces = new RdmaInterfaces(this.sys,
				(name) -> name.equals("eth0") ? Optional.of(address) : Optional.empty());
		assertThat(interfaces.firstAddress()).hasValue(new RdmaInterfaces.Selection("rxe0", "eth0", address));
		assertThat(interfaces.deviceOf(address)).hasValue("rxe0");
		assertThat(interfaces.deviceOf(InetAddress.getByName("192.0.2.11"))).isEmpty();
	}

	/**
	 * Linux 6.1's siw names no interface in sysfs (the lab's siw0 has no ndevs, no device/net,
	 * no parent); its node GUID is the EUI-64 of its NIC's MAC, which names it.
	 */
	@Test
	void aSoftIwarpDeviceIsFoundByItsNodeGuid() throws IOException {
		write("siw0/node_guid", "5054:00ff:fe12:3456\n");
		write("siw0/node_type", "4: RNIC\n");
		write("rxe0/parent", "dummy0\n");
		write("rxe0/node_type", "1: CA\n");
		String guid = RdmaInterfaces.eui64(new byte[] { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 });
		assertThat(guid).isEqualTo("5054:00ff:fe12:3456");
		RdmaInterfaces interfaces = new RdmaInterfaces(this.sys, (name) -> Optional.empty(),
				() -> Map.of("eth0", guid, "dummy0", "0000:00ff:fe00:0001"));
		assertThat(interfaces.interfacesByDevice()).containsEntry("siw0", List.of("eth0"))
			.containsEntry("rxe0", List.of("dummy0"));
		assertThat(interfaces.isIwarp("siw0")).isTrue();
		assertThat(interfaces.isIwarp("rxe0")).isFalse();
		assertThat(interfaces.isIwarp("unknown")).isFalse();
	}

	@Test
	void noDevicesMeansNoSelection() {
		RdmaInterfaces interfaces = new RdmaInterfaces(this.sys.resolve("absent"), (name) -> Optional.empty());
		assertThat(interfaces.interfacesByDevice()).isEmpty();
		assertThat(interfaces.firstAddress()).isEmpty();
	}

	private void write(String relative, String content) throws IOException {
		Path file = this.sys.resolve(relative);
		Files.createDirectories(file.getParent());
		Files.writeString(file, content);
	}

}
