package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

class RpcServerConfigTest {

	@Test
	void theClientKeyIsTheAddressWithoutItsPort() throws Exception {
		InetAddress host = InetAddress.getByAddress(new byte[] { 10, 0, 0, 7 });
		assertThat(RpcServer.clientKey(new InetSocketAddress(host, 40001)))
			.isEqualTo(RpcServer.clientKey(new InetSocketAddress(host, 40002)))
			.isEqualTo(host);
		assertThat(RpcServer.clientKey(InetSocketAddress.createUnresolved("peer", 1)))
			.isEqualTo(RpcServer.clientKey(InetSocketAddress.createUnresolved("peer", 2)))
			.isNotEqualTo(RpcServer.clientKey(InetSocketAddress.createUnresolved("other", 1)));
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
