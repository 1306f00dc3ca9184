package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

class DisniAddressesTest {

	@Test
	void withRpcrdmasNativesIpv6AddressesAreCarried() throws Exception {
		DisniAddresses addresses = DisniAddresses.detect(() -> CmAddressNatives.VERSION);
		InetSocketAddress ipv6 = new InetSocketAddress(InetAddress.getByName("fd00:72::1"), 20049);
		assertThat(addresses.ipv6()).isTrue();
		assertThat(addresses.check(ipv6, "listen on")).isSameAs(ipv6);
	}

	@Test
	void aStockLibdisniCarriesIpv4OnlyAndSaysWhyAnIpv6AddressIsRefused() throws Exception {
		DisniAddresses addresses = DisniAddresses.detect(() -> {
			throw new UnsatisfiedLinkError("'int io.rpcrdma.verbs.disni.CmAddressNatives.version()'");
		});
		InetSocketAddress ipv4 = new InetSocketAddress("10.77.0.1", 20049);
		assertThat(addresses.ipv6()).isFalse();
		assertThat(addresses.check(ipv4, "connect to")).isSameAs(ipv4);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> addresses.check(new InetSocketAddress(InetAddress.getByName("fd00:72::1"), 20049),
					"connect to"))
			.withMessageStartingWith("Cannot connect to ")
			.withMessageContaining("fd00:72:0:0:0:0:0:1]:20049: DiSNI 2.1 carries IPv4 addresses only")
			.withMessageContaining("build rpcrdma-disni-native for IPv6");
	}

	@Test
	void nativesOfAnotherVersionAreNotUsed() {
		assertThat(DisniAddresses.detect(() -> 9).missing()).hasValueSatisfying(
				(why) -> assertThat(why).contains("version 9").contains("rebuild rpcrdma-disni-native"));
	}

}
