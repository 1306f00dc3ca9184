package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.rpcrdma.RpcRdmaVersion;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest
class DemoApplicationTest {

	@Test
	void contextStartsAndBannerNamesTheVersion() {
		assertThat(DemoApplication.banner()).startsWith("rpcrdma " + RpcRdmaVersion.get());
	}

}
