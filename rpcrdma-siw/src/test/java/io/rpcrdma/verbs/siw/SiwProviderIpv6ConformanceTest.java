package io.rpcrdma.verbs.siw;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.conformance.ProviderConformanceKit;

/**
 * Runs the provider conformance kit against the siw provider over IPv6 (::1); skipped, with
 * the reason, where the machine has no IPv6 loopback.
 */
class SiwProviderIpv6ConformanceTest extends ProviderConformanceKit {

	private static final InetAddress IPV6_LOOPBACK = ipv6Loopback();

	@BeforeAll
	static void requireIpv6() {
		Assumptions.assumeTrue(IPV6_LOOPBACK != null, "SKIPPED: no IPv6 loopback (::1) on this machine; "
				+ "the siw provider's IPv6 conformance run needs one");
	}

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("siw");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(IPV6_LOOPBACK, 0);
	}

	private static InetAddress ipv6Loopback() {
		try {
			InetAddress address = InetAddress.getByName("::1");
			if (!(address instanceof Inet6Address)) {
				return null;
			}
			try (ServerSocket probe = new ServerSocket(0, 1, address)) {
				return address;
			}
		}
		catch (Exception ex) {
			return null;
		}
	}

}
