package io.rpcrdma.discovery.rpcbind;

import java.net.InetSocketAddress;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** How the resolver chooses among the mappings of a DUMP, without a daemon. */
class RpcbindResolverTest {

	private static final InetSocketAddress RPCBIND = new InetSocketAddress("192.0.2.9", 111);

	private static RpcbindMapping mapping(int program, int version, String netid, String address) {
		return new RpcbindMapping(program, version, netid, address, "unknown");
	}

	@Test
	void rdmaIsPreferredToRdma6AndOtherNetidsAreIgnored() {
		List<RpcbindMapping> dump = List.of(mapping(400100, 1, "tcp", "192.0.2.9.0.80"),
				mapping(400100, 1, "rdma6", "2001:db8::9.78.81"), mapping(400100, 1, "rdma", "192.0.2.9.78.81"));

		assertThat(RpcbindResolver.pick(RPCBIND, 400100, 1, dump)).isEqualTo(new InetSocketAddress("192.0.2.9", 20049));
	}

	@Test
	void rdma6IsTakenWhenItIsTheOnlyRdmaMapping() {
		List<RpcbindMapping> dump = List.of(mapping(400100, 1, "rdma6", "2001:db8::9.78.81"));

		assertThat(RpcbindResolver.pick(RPCBIND, 400100, 1, dump))
			.isEqualTo(new InetSocketAddress("2001:db8::9", 20049));
	}

	@Test
	void aWildcardAddressStandsForTheHostThatWasAsked() {
		List<RpcbindMapping> dump = List.of(mapping(400100, 1, "rdma", "0.0.0.0.78.81"));

		assertThat(RpcbindResolver.pick(RPCBIND, 400100, 1, dump)).isEqualTo(new InetSocketAddress("192.0.2.9", 20049));
	}

	@Test
	void aMissingVersionIsReportedWithWhatTheProgramHas() {
		List<RpcbindMapping> dump = List.of(mapping(400100, 1, "rdma", "192.0.2.9.78.81"),
				mapping(400100, 2, "tcp", "192.0.2.9.0.80"));

		assertThatExceptionOfType(ProgramNotRegisteredException.class)
			.isThrownBy(() -> RpcbindResolver.pick(RPCBIND, 400100, 2, dump))
			.withMessageContaining("Program 0x61ae4 version 2 is not registered for RPC-over-RDMA")
			.withMessageContaining("192.0.2.9:111")
			.withMessageContaining("it has only version 1 over rdma, version 2 over tcp")
			.satisfies((ex) -> assertThat(ex.program()).isEqualTo(400100));
	}

	@Test
	void aMalformedRegisteredAddressIsAProtocolErrorNotAnAddress() {
		List<RpcbindMapping> dump = List.of(mapping(400100, 1, "rdma", "somewhere.0.1"));

		assertThatExceptionOfType(RpcbindProtocolException.class)
			.isThrownBy(() -> RpcbindResolver.pick(RPCBIND, 400100, 1, dump))
			.withMessageContaining("has no valid address");
	}

}
