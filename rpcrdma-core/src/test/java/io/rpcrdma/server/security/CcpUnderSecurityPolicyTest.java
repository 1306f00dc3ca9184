package io.rpcrdma.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.service.CredentialInterceptor;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.transport.CcpMode;
import io.rpcrdma.transport.RpcRdmaClientConnection;
import io.rpcrdma.transport.TransportConfig;

/**
 * RFC 5666 §11: the Connection Configuration Protocol, when used, must be protected by an RPC
 * security flavor. The transport answers CCP under AUTH_NONE, so a server with a security
 * policy leaves CONF_RDMA to its policy, which refuses it: an unauthenticated peer cannot set
 * a connection's inline sizes, and calls go on under the defaults. A server that admits every
 * call still answers it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CcpUnderSecurityPolicyTest {

	private static final int PROGRAM = 0x20000c13;

	/** Version One, 4 KiB receive buffers both sides, no private data: CCP is needed to use them. */
	private static final TransportConfig CCP_NEEDED = TransportConfig.defaults()
		.withVersions(io.rpcrdma.oncrpc.VersionRange.VERSION_1_ONLY, 1)
		.withInlineThresholds(4096, 4096)
		.withConnectionConfiguration(false, CcpMode.WHEN_NEEDED, Duration.ofSeconds(10));

	/** The service. */
	@RpcProgram(number = PROGRAM, version = 1)
	public interface Echo {

		@RpcProcedure(1)
		byte[] echo(byte[] data);

	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aServerWithAPolicyRefusesUnprotectedCcpAndCallsGoOnUnderTheDefaults(String provider) {
		SecurityPolicy sysOnly = SecurityPolicy.builder().byDefault(EnumSet.of(SecurityFlavor.SYS)).build();
		try (SecuredServer secured = SecuredServer.start(provider, CCP_NEEDED, sysOnly, (Echo) (data) -> data)) {
			Echo echo = secured.proxy(Echo.class, secured.clients(), Duration.ofSeconds(20),
					CredentialInterceptor.authSys(AuthSys.of("ccp-host", 7, 7)));
			byte[] data = new byte[3072];
			assertThat(echo.echo(data)).hasSize(3072);
			RpcRdmaClientConnection connection = (RpcRdmaClientConnection) secured.clients().connections().get(0)
				.transport();
			assertThat(connection.negotiatedInBand()).as("CCP took effect").isFalse();
			// Under Version One's 1 KiB default the 3 KiB call needed a Position-Zero Read chunk.
			assertThat(connection.stats().positionZeroChunksSent()).isEqualTo(1);
			assertThat(secured.server().dispatcher().stats().authErrors()).as("the CONF_RDMA call, refused").isEqualTo(1);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "loopback", "siw" })
	void aServerThatAdmitsEveryCallStillAnswersCcp(String provider) {
		try (SecuredServer open = SecuredServer.start(provider, CCP_NEEDED, SecurityPolicy.permitAll(),
				(Echo) (data) -> data)) {
			Echo echo = open.proxy(Echo.class, open.clients(), Duration.ofSeconds(20));
			assertThat(echo.echo(new byte[3072])).hasSize(3072);
			RpcRdmaClientConnection connection = (RpcRdmaClientConnection) open.clients().connections().get(0)
				.transport();
			assertThat(connection.negotiatedInBand()).isTrue();
			assertThat(connection.stats().positionZeroChunksSent()).as("3 KiB went inline").isZero();
		}
	}

}
