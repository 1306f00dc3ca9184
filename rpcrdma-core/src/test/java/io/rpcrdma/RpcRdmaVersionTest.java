package io.rpcrdma;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RpcRdmaVersionTest {

	@Test
	void versionIsStampedFromTheBuild() {
		assertThat(RpcRdmaVersion.get()).isNotBlank().doesNotContain("${").matches("\\d+\\.\\d+\\.\\d+.*");
	}

}
