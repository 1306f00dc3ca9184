package io.rpcrdma.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.client.security.RpcSecGssClient;
import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.kerberos.MitKdcExtension;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;

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
 * policy leaves CONF_RDMA to its policy: without RPCSEC_GSS it refuses it, so an
 * unauthenticated peer cannot set a connection's inline sizes and calls go on under the
 * defaults; with RPCSEC_GSS, a client sends CONF_RDMA under its connection's context (krb5,
 * krb5i, krb5p), which the server answers and applies, and refuses it under a flavor that
 * proves nobody even where its policy admits that flavor. A server that admits every call
 * still answers unprotected CCP. The RPCSEC_GSS cases run against a real MIT KDC and skip
 * loudly without one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CcpUnderSecurityPolicyTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

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

	@Nested
	@ExtendWith(MitKdcExtension.class)
	class UnderRpcsecGss {

		@ParameterizedTest
		@EnumSource(GssService.class)
		void aClientSendsCcpUnderItsConnectionsContextAndBothSidesTakeTheLargerSizes(GssService protection, MitKdc kdc)
				throws Exception {
			for (String provider : new String[] { "loopback", "siw" }) {
				SecurityFlavor flavor = switch (protection) {
					case NONE -> SecurityFlavor.KRB5;
					case INTEGRITY -> SecurityFlavor.KRB5I;
					case PRIVACY -> SecurityFlavor.KRB5P;
				};
				SecurityPolicy policy = SecurityPolicy.builder()
					.rpcsecGss(acceptor(kdc))
					.byDefault(EnumSet.of(flavor))
					.build();
				try (SecuredServer secured = SecuredServer.start(provider, CCP_NEEDED, policy, (Echo) (data) -> data)) {
					KerberosCredentials login = KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("ccp-carol"),
							kdc.principalWithKeytab("ccp-carol"));
					secured.clients().protectConnections((connection) -> RpcSecGssClient.onFirstCall(connection, login,
							"rpcrdma@localhost", protection, DEADLINE));
					Echo echo = secured.proxy(Echo.class, secured.clients(), DEADLINE);
					assertThat(echo.echo(new byte[16])).as(provider).hasSize(16);
					RpcRdmaClientConnection connection = (RpcRdmaClientConnection) secured.clients().connections().get(0)
						.transport();
					assertThat(connection.negotiatedInBand()).as(provider + ": CCP under " + flavor).isTrue();
					assertThat(connection.wantsInBandConfiguration()).isFalse();
					assertThat(secured.server().connections()).singleElement()
						.satisfies((served) -> assertThat(served.negotiatedInBand()).isTrue());
					assertThat(secured.server().dispatcher().stats().authErrors())
						.as(provider + ": only the transport's unprotected CONF_RDMA at connection time was refused")
						.isEqualTo(1);
					// 3 KiB, protected, goes inline both ways under the sizes CCP raised to 4 KiB.
					long positionZero = connection.stats().positionZeroChunksSent();
					byte[] data = new byte[3072];
					new java.util.Random(5).nextBytes(data);
					assertThat(echo.echo(data)).as(provider).isEqualTo(data);
					assertThat(connection.stats().positionZeroChunksSent()).as(provider + ": no Read chunk for 3 KiB")
						.isEqualTo(positionZero);
				}
			}
		}

		@ParameterizedTest
		@ValueSource(strings = { "loopback", "siw" })
		void ccpUnderAFlavorThatProvesNobodyIsTooWeakEvenWhereThePolicyAdmitsThatFlavor(String provider, MitKdc kdc)
				throws Exception {
			SecurityPolicy policy = SecurityPolicy.builder()
				.rpcsecGss(acceptor(kdc))
				.byDefault(EnumSet.of(SecurityFlavor.NONE, SecurityFlavor.KRB5))
				.build();
			try (SecuredServer secured = SecuredServer.start(provider, CCP_NEEDED, policy, (Echo) (data) -> data)) {
				Echo echo = secured.proxy(Echo.class, secured.clients(), DEADLINE);
				assertThat(echo.echo(new byte[3072])).hasSize(3072);
				RpcRdmaClientConnection connection = (RpcRdmaClientConnection) secured.clients().connections().get(0)
					.transport();
				assertThat(connection.negotiatedInBand()).as("CCP under AUTH_NONE took effect").isFalse();
				assertThat(connection.stats().positionZeroChunksSent()).isEqualTo(1);
				assertThat(secured.server().connections()).singleElement()
					.satisfies((served) -> assertThat(served.negotiatedInBand()).isFalse());
				assertThat(secured.server().dispatcher().stats().authErrors()).as("CONF_RDMA, AUTH_TOOWEAK").isEqualTo(1);
			}
		}

		private static RpcSecGssServer acceptor(MitKdc kdc) throws Exception {
			return new RpcSecGssServer(KerberosCredentials.acceptorFromKeytab(MitKdc.qualified("rpcrdma/localhost"),
					kdc.principalWithKeytab("rpcrdma/localhost")));
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
