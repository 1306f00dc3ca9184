package io.rpcrdma.service.e2e;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Nested;

import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.service.CredentialInterceptor;
import io.rpcrdma.service.RpcClientInterceptor;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * {@link ServiceEndToEndTests} with a server that accepts AUTH_SYS only, and clients that
 * send it, over loopback and software iWARP.
 */
class AuthSysServiceEndToEndTest {

	/** The AUTH_SYS suite over the loopback provider. */
	@Nested
	class OverLoopback extends AuthSysSuite {

		@Override
		protected RdmaProvider openProvider() {
			return RdmaProviders.open("loopback");
		}

		@Override
		protected InetSocketAddress listenAddress() {
			return InetSocketAddress.createUnresolved("service-end-to-end-sys", 0);
		}

	}

	/** The AUTH_SYS suite over software iWARP. */
	@Nested
	class OverSiw extends AuthSysSuite {

		@Override
		protected RdmaProvider openProvider() {
			return RdmaProviders.open("siw");
		}

		@Override
		protected InetSocketAddress listenAddress() {
			return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
		}

	}

	/** Every procedure needs AUTH_SYS; every proxy sends it. */
	abstract static class AuthSysSuite extends ServiceEndToEndTests {

		@Override
		protected SecurityPolicy securityPolicy() {
			return SecurityPolicy.builder().byDefault(EnumSet.of(SecurityFlavor.SYS)).build();
		}

		@Override
		protected ServiceClientOptions withFlavor(ServiceClientOptions options) {
			List<RpcClientInterceptor> interceptors = new ArrayList<>();
			interceptors.add(CredentialInterceptor.authSys(AuthSys.of("e2e-host", 1000, 1000, 10)));
			interceptors.addAll(options.interceptors());
			return options.withInterceptors(interceptors);
		}

	}

}
