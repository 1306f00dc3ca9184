package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

class RpcServerConfigTest {

	@Test
	void theClientKeyIsTheAddressWithItsPortAndItsHostIsTheAddress() throws Exception {
		InetAddress host = InetAddress.getByAddress(new byte[] { 10, 0, 0, 7 });
		Object first = RpcServer.clientKey(new InetSocketAddress(host, 40001));
		Object second = RpcServer.clientKey(new InetSocketAddress(host, 40002));

		assertThat(first).isEqualTo(new RequesterAddress(host, 40001))
			.isEqualTo(RpcServer.clientKey(new InetSocketAddress(host, 40001)))
			.isNotEqualTo(second)
			.hasToString("10.0.0.7:40001");
		assertThat(RequesterAddress.hostOf(first)).isEqualTo(RequesterAddress.hostOf(second)).isEqualTo(host);
		Object unresolved = RpcServer.clientKey(InetSocketAddress.createUnresolved("peer", 1));
		assertThat(RequesterAddress.hostOf(unresolved))
			.isEqualTo(RequesterAddress.hostOf(RpcServer.clientKey(InetSocketAddress.createUnresolved("peer", 2))))
			.isNotEqualTo(RequesterAddress.hostOf(RpcServer.clientKey(InetSocketAddress.createUnresolved("other", 1))));
		assertThat(RpcServer.clientKey(new InetSocketAddress(InetAddress.getByName("::1"), 7))).hasToString("[0:0:0:0:0:0:0:1]:7");
		assertThat(RequesterAddress.hostOf("any key")).as("another key stands for itself").isEqualTo("any key");
	}

	@Test
	void executorSpecsRejectImpossibleSizes() {
		assertThatThrownBy(() -> new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.BOUNDED_POOL, 0, 4))
			.isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.BOUNDED_POOL, 2, -1))
			.isInstanceOf(IllegalArgumentException.class);
		assertThat(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.DIRECT, 1, 0).create().description())
			.isNotBlank();
	}

}
