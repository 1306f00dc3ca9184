package io.rpcrdma.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.AuthSys;

class CredentialInterceptorTest {

	@Test
	void thisProcessesCredentialIsItsEffectiveUidAndGidAsTheKernelReportsThem() throws Exception {
		Path status = Path.of("/proc/self/status");
		Assumptions.assumeTrue(Files.isReadable(status), "no /proc/self/status to compare with");
		List<String> lines = Files.readAllLines(status);
		// "Uid:	real	effective	saved	filesystem"
		long uid = Long.parseLong(field(lines, "Uid:")[2]);
		long gid = Long.parseLong(field(lines, "Gid:")[2]);
		AuthSys credential = CredentialInterceptor.processCredential();
		assertThat(Integer.toUnsignedLong(credential.uid())).isEqualTo(uid);
		assertThat(Integer.toUnsignedLong(credential.gid())).isEqualTo(gid);
		assertThat(credential.gidCount()).isLessThanOrEqualTo(AuthSys.MAX_GIDS);
		assertThat(credential.machineName()).isNotEmpty();
	}

	private static String[] field(List<String> lines, String name) {
		return lines.stream().filter((line) -> line.startsWith(name)).findFirst().orElseThrow().split("\\s+");
	}

}
