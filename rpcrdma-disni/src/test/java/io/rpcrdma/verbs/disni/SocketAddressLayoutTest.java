package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;

class SocketAddressLayoutTest {

	@Test
	void anIpv6AddressIsLaidOutAsLinuxsSockaddrIn6() throws Exception {
		ByteBuffer buffer = ByteBuffer.allocate(SocketAddressLayout.IN6_SIZE);
		int size = SocketAddressLayout.write(new InetSocketAddress(InetAddress.getByName("fd00:72::1"), 20049), buffer);
		assertThat(size).isEqualTo(28);
		ByteBuffer host = buffer.duplicate().order(ByteOrder.nativeOrder());
		assertThat(host.getShort(0)).isEqualTo((short) 10);
		// sin6_port in network byte order: 20049 = 0x4e51.
		assertThat(buffer.get(2)).isEqualTo((byte) 0x4e);
		assertThat(buffer.get(3)).isEqualTo((byte) 0x51);
		assertThat(host.getInt(4)).as("sin6_flowinfo").isZero();
		assertThat(buffer.get(8)).isEqualTo((byte) 0xfd);
		assertThat(buffer.get(23)).isEqualTo((byte) 1);
		assertThat(host.getInt(24)).as("sin6_scope_id").isZero();
	}

	@Test
	void anIpv4AddressIsLaidOutAsLinuxsSockaddrIn() throws Exception {
		ByteBuffer buffer = ByteBuffer.allocate(SocketAddressLayout.IN6_SIZE);
		int size = SocketAddressLayout.write(new InetSocketAddress(InetAddress.getByName("10.77.0.1"), 258), buffer);
		assertThat(size).isEqualTo(16);
		assertThat(buffer.duplicate().order(ByteOrder.nativeOrder()).getShort(0)).isEqualTo((short) 2);
		assertThat(new byte[] { buffer.get(2), buffer.get(3), buffer.get(4), buffer.get(5), buffer.get(6), buffer.get(7) })
			.containsExactly(1, 2, 10, 77, 0, 1);
	}

	@Test
	void whatIsWrittenReadsBackWithItsScope() throws Exception {
		Inet6Address linkLocal = Inet6Address.getByAddress(null, InetAddress.getByName("fe80::1").getAddress(), 3);
		for (InetSocketAddress address : new InetSocketAddress[] { new InetSocketAddress("10.0.0.5", 65535),
				new InetSocketAddress(InetAddress.getByName("fd00:72::1"), 1),
				new InetSocketAddress(linkLocal, 20049) }) {
			ByteBuffer buffer = ByteBuffer.allocateDirect(SocketAddressLayout.IN6_SIZE);
			int size = SocketAddressLayout.write(address, buffer);
			assertThat(SocketAddressLayout.read(buffer, size)).isEqualTo(address);
		}
	}

	@Test
	void somethingElseIsRefusedNamingItsFamily() {
		ByteBuffer buffer = ByteBuffer.allocate(SocketAddressLayout.IN6_SIZE);
		buffer.duplicate().order(ByteOrder.nativeOrder()).putShort(0, (short) 27);
		assertThatIllegalArgumentException().isThrownBy(() -> SocketAddressLayout.read(buffer, 16))
			.withMessage("Not an IPv4 or IPv6 socket address: family 27, 16 bytes");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SocketAddressLayout.write(InetSocketAddress.createUnresolved("nowhere", 1), buffer))
			.withMessageContaining("Unresolved address");
	}

}
