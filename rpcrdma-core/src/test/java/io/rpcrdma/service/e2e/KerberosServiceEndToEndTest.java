package io.rpcrdma.service.e2e;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.EnumSet;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.security.RpcSecGssClient;
import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.kerberos.MitKdcExtension;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * {@link ServiceEndToEndTests} under RPCSEC_GSS with Kerberos, once per service (krb5, krb5i,
 * krb5p) over loopback and software iWARP, with tickets from a real MIT KDC: the server
 * accepts only the flavor under test, every proxy calls through an {@link RpcSecGssClient}.
 */
@Tag("conformance")
@ExtendWith(MitKdcExtension.class)
class KerberosServiceEndToEndTest {

	@Nested
	class Krb5OverLoopback extends KerberosSuite {

		Krb5OverLoopback() {
			super(GssService.NONE, "loopback");
		}

	}

	@Nested
	class Krb5OverSiw extends KerberosSuite {

		Krb5OverSiw() {
			super(GssService.NONE, "siw");
		}

	}

	@Nested
	class Krb5iOverLoopback extends KerberosSuite {

		Krb5iOverLoopback() {
			super(GssService.INTEGRITY, "loopback");
		}

	}

	@Nested
	class Krb5iOverSiw extends KerberosSuite {

		Krb5iOverSiw() {
			super(GssService.INTEGRITY, "siw");
		}

	}

	@Nested
	class Krb5pOverLoopback extends KerberosSuite {

		Krb5pOverLoopback() {
			super(GssService.PRIVACY, "loopback");
		}

	}

	@Nested
	class Krb5pOverSiw extends KerberosSuite {

		Krb5pOverSiw() {
			super(GssService.PRIVACY, "siw");
		}

	}

	/** The suite with one Kerberos service over one provider. */
	abstract static class KerberosSuite extends ServiceEndToEndTests implements MitKdcExtension.KdcAware {

		private final GssService protection;

		private final String providerName;

		private MitKdc kdc;

		KerberosSuite(GssService protection, String providerName) {
			this.protection = protection;
			this.providerName = providerName;
		}

		@Override
		public void kdc(MitKdc given) {
			this.kdc = given;
		}

		@Override
		protected RdmaProvider openProvider() {
			return RdmaProviders.open(this.providerName);
		}

		@Override
		protected InetSocketAddress listenAddress() {
			return "loopback".equals(this.providerName)
					? InetSocketAddress.createUnresolved("service-end-to-end-" + this.protection, 0)
					: new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
		}

		@Override
		protected SecurityPolicy securityPolicy() {
			SecurityFlavor flavor = switch (this.protection) {
				case NONE -> SecurityFlavor.KRB5;
				case INTEGRITY -> SecurityFlavor.KRB5I;
				case PRIVACY -> SecurityFlavor.KRB5P;
			};
			try {
				RpcSecGssServer rpcsecGss = new RpcSecGssServer(KerberosCredentials.acceptorFromKeytab(
						MitKdc.qualified("rpcrdma/localhost"), this.kdc.principalWithKeytab("rpcrdma/localhost")));
				return SecurityPolicy.builder().rpcsecGss(rpcsecGss).byDefault(EnumSet.of(flavor)).build();
			}
			catch (Exception ex) {
				throw new IllegalStateException("The test KDC could not give the service its keytab", ex);
			}
		}

		@Override
		protected RpcCaller protect(RpcClientPool connections) {
			try {
				KerberosCredentials login = KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("e2e-client"),
						this.kdc.principalWithKeytab("e2e-client"));
				return RpcSecGssClient.onFirstCall(connections, login, "rpcrdma@localhost", this.protection, DEADLINE);
			}
			catch (Exception ex) {
				throw new IllegalStateException("The test KDC could not give the client its keytab", ex);
			}
		}

		@Override
		protected boolean protectsBodies() {
			return this.protection != GssService.NONE;
		}

	}

}
