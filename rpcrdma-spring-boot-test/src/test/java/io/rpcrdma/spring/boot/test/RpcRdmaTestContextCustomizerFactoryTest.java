package io.rpcrdma.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rpcrdma.spring.boot.sample.Greeter;

import org.springframework.test.context.ContextCustomizer;

/**
 * The test transport is part of the test context cache key: tests with the same transport
 * share a context, tests with another provider, address or clients get their own.
 */
class RpcRdmaTestContextCustomizerFactoryTest {

	private final RpcRdmaTestContextCustomizerFactory factory = new RpcRdmaTestContextCustomizerFactory();

	@Test
	void testsWithoutTheAnnotationsAreLeftAlone() {
		assertThat(customizer(Plain.class)).isNull();
	}

	@Test
	void sameTransportGivesEqualKeys() {
		assertThat(customizer(LoopbackOne.class)).isEqualTo(customizer(LoopbackTwo.class))
			.hasSameHashCodeAs(customizer(LoopbackTwo.class));
	}

	@Test
	void providerAddressAndClientsAreInTheKey() {
		ContextCustomizer loopback = customizer(LoopbackOne.class);
		assertThat(customizer(Siw.class)).isNotEqualTo(loopback);
		assertThat(customizer(NamedAddress.class)).isNotEqualTo(loopback);
		assertThat(customizer(SliceWithClients.class)).isNotEqualTo(customizer(Slice.class));
	}

	@Test
	void sliceCarriesItsTransportAndClients() {
		assertThat(customizer(SliceWithClients.class))
			.isEqualTo(new RpcRdmaTestContextCustomizer("loopback", "", List.of(Greeter.class)));
	}

	@Test
	void nestedTestsInheritTheEnclosingTransport() {
		assertThat(customizer(NamedAddress.Inner.class)).isEqualTo(customizer(NamedAddress.class));
	}

	private ContextCustomizer customizer(Class<?> testClass) {
		return this.factory.createContextCustomizer(testClass, List.of());
	}

	static class Plain {

	}

	@AutoConfigureRpcRdma
	static class LoopbackOne {

	}

	@AutoConfigureRpcRdma
	static class LoopbackTwo {

	}

	@AutoConfigureRpcRdma(provider = "siw")
	static class Siw {

	}

	@AutoConfigureRpcRdma(address = "named")
	static class NamedAddress {

		class Inner {

		}

	}

	@RpcRdmaTest
	static class Slice {

	}

	@RpcRdmaTest(clients = Greeter.class)
	static class SliceWithClients {

	}

}
