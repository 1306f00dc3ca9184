package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.disni.DisniTestDevice;

/**
 * IPv6 on the {@code disni} provider (issue #37): a server listening on an IPv6 address of the
 * device's interface and a client calling it by that address, through rpcrdma's own address
 * natives in libdisni (DiSNI 2.1's Java side lays out IPv4 addresses only). The address comes
 * from {@code -Drpcrdma.disni.test-ipv6}, which the interop lab sets after adding it to the
 * guest's interface (DisniLabTest); skipped without it or where DiSNI cannot run.
 */
@ExtendWith(DisniTestDevice.Available.class)
class DisniIpv6Test extends RpcRdmaTransportKit {

	static final String ADDRESS_PROPERTY = "rpcrdma.disni.test-ipv6";

	@Override
	protected RdmaProvider openProvider() {
		return DisniTestDevice.open();
	}

	@Override
	protected InetSocketAddress listenAddress() {
		String configured = System.getProperty(ADDRESS_PROPERTY);
		assumeTrue(configured != null && !configured.isBlank(), "no IPv6 address given with -D" + ADDRESS_PROPERTY);
		try {
			return new InetSocketAddress(InetAddress.getByName(configured.trim()), 0);
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException(ADDRESS_PROPERTY + "=" + configured + " does not resolve", ex);
		}
	}

	@Test
	void aClientCallsAServerByAnIpv6AddressOfTheDevicesInterface() throws Exception {
		InetSocketAddress listen = listenAddress();
		RpcRdmaServer server = echoServer(v1Only());
		assertThat(server.localAddress().getAddress()).isEqualTo(listen.getAddress());
		assertThat(server.localAddress().getPort()).isPositive();
		RpcRdmaClientConnection client = client(server, v1Only());

		byte[] small = RpcWorkload.pattern(100, 5);
		assertThat(RpcWorkload.opaqueResult(await(client.call(RpcWorkload.echo(21, small, false, 0, 0)))))
			.isEqualTo(small);
		// A Read chunk and a Write chunk too: their RDMA Reads and Writes go over the same path.
		byte[] large = RpcWorkload.pattern(60_000, 7);
		assertThat(RpcWorkload.opaqueResult(await(client.call(RpcWorkload.echo(22, large, true, 65_536, 0)))))
			.isEqualTo(large);
		assertThat(client.remoteAddress()).isEqualTo(server.localAddress());
		RpcRdmaServerConnection connection = onlyConnection(server);
		assertThat(connection.remoteAddress()).as("the requester's address, as the server's connection manager saw it")
			.isNotNull();
		assertThat(connection.remoteAddress().getAddress()).isInstanceOf(Inet6Address.class);
	}

}
