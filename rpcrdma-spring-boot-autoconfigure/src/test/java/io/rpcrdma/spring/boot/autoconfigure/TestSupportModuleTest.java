package io.rpcrdma.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.IOException;
import java.util.Collections;

import org.junit.jupiter.api.Test;

/**
 * The test slice lives in rpcrdma-spring-boot-test, which applications add with test scope, as
 * Spring Boot keeps its slices out of its auto-configuration jar: nothing of it ships here.
 */
class TestSupportModuleTest {

	@Test
	void theSliceIsNotOnTheAutoConfigurationsClassPath() throws IOException {
		for (String name : new String[] { "io.rpcrdma.spring.boot.test.RpcRdmaTest",
				"io.rpcrdma.spring.boot.test.AutoConfigureRpcRdma", "io.rpcrdma.spring.boot.test.LocalRpcRdmaPort" }) {
			assertThatExceptionOfType(ClassNotFoundException.class).isThrownBy(() -> Class.forName(name));
		}
		assertThat(Collections.list(getClass().getClassLoader()
			.getResources("META-INF/spring/io.rpcrdma.spring.boot.test.AutoConfigureRpcRdma.imports"))).isEmpty();
	}

}
