package io.rpcrdma.discovery.rpcbind;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class UniversalAddressTest {

	@ParameterizedTest
	@CsvSource({ "127.0.0.1.0.111, 127.0.0.1, 111", "192.0.2.7.78.81, 192.0.2.7, 20049",
			"10.0.0.1.255.255, 10.0.0.1, 65535", "0.0.0.0.0.0, 0.0.0.0, 0", "::1.78.81, ::1, 20049",
			"fe80::1:2.0.1, fe80::1:2, 1", "::.0.111, ::, 111", "2001:db8::ff00:42:8329.1.0, 2001:db8::ff00:42:8329, 256" })
	void rfc5665FormsRoundTrip(String text, String host, int port) throws Exception {
		UniversalAddress address = UniversalAddress.parse(text);

		assertThat(address.address()).isEqualTo(InetAddress.getByName(host));
		assertThat(address.port()).isEqualTo(port);
		assertThat(address.format()).isEqualTo(text);
	}

	@Test
	void ipv6IsWrittenInTheCompressedLowerCaseFormRpcbindPrints() throws Exception {
		assertThat(new UniversalAddress(InetAddress.getByName("2001:DB8:0:0:1:0:0:1"), 20049).format())
			.isEqualTo("2001:db8::1:0:0:1.78.81");
		assertThat(new UniversalAddress(InetAddress.getByName("1:0:2:0:3:0:4:0"), 1).format())
			.isEqualTo("1:0:2:0:3:0:4:0.0.1");
		assertThat(UniversalAddress.parse("0:0:0:0:0:0:0:1.0.111").format()).isEqualTo("::1.0.111");
	}

	@Test
	void theNetidFollowsTheAddressFamily() throws Exception {
		assertThat(UniversalAddress.of(new InetSocketAddress("127.0.0.1", 1)).rdmaNetid()).isEqualTo(RdmaNetid.RDMA);
		assertThat(UniversalAddress.of(new InetSocketAddress("::1", 1)).rdmaNetid()).isEqualTo(RdmaNetid.RDMA6);
		assertThat(RdmaNetid.lookup("rdma6")).contains(RdmaNetid.RDMA6);
		assertThat(RdmaNetid.lookup("tcp")).isEmpty();
	}

	@Test
	void aScopeIdIsDroppedForItHasNoPlaceInAUniversalAddress() throws Exception {
		InetAddress scoped = InetAddress.getByName("fe80::1%1");
		assertThat(new UniversalAddress(scoped, 7).format()).isEqualTo("fe80::1.0.7");
	}

	@Test
	void anUnresolvedSocketAddressIsRefused() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> UniversalAddress.of(InetSocketAddress.createUnresolved("server.example", 1)))
			.withMessageContaining("unresolved");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '"', value = { "\"\"| no host followed by .p1.p2", "1.2| no host followed by .p1.p2",
			"1.2.3.4| four parts", "1.2.3.4.5.6.7| not a decimal digit", "1.2.3.256.0.1| 256 exceeds 255",
			"1.2.3.4.0.256| port low byte p2 256 exceeds 255", "1.2.3.4.1000.1| 1 to 3 decimal digits",
			"a.b.c.d.1.2| not a decimal digit", "1.2.3.4.-1.2| not a decimal digit", "1..3.4.0.1| 1 to 3 decimal digits",
			"1.2.3.4.0.| 1 to 3 decimal digits", "fe80::1%eth0.0.1| '%' cannot appear", "::g.0.1| 'g' cannot appear",
			"1:2:3:4:5:6:7:8:9.0.1| not an IPv6 address", "server.example.0.111| IPv4 part h1 must be 1 to 3 decimal digits",
			".0.111| no host followed by .p1.p2" })
	void malformedAddressesAreRefusedSayingWhatIsWrong(String text, String why) {
		assertThatExceptionOfType(MalformedUniversalAddressException.class).isThrownBy(() -> UniversalAddress.parse(text))
			.withMessageContaining(why)
			.withMessageContaining("RFC 5665");
	}

	@ParameterizedTest
	@ValueSource(ints = { 65, 1000, 1 << 20 })
	void anOverlongAddressIsRefusedBeforeItIsReadAndShownCut(int length) {
		String text = "1".repeat(length);
		assertThatExceptionOfType(MalformedUniversalAddressException.class).isThrownBy(() -> UniversalAddress.parse(text))
			.withMessageContaining("longer than 64 characters")
			.satisfies((ex) -> assertThat(ex.getMessage()).hasSizeLessThan(300));
	}

	@Test
	void controlCharactersFromAPeerAreNotEchoedIntoMessages() {
		assertThatExceptionOfType(MalformedUniversalAddressException.class)
			.isThrownBy(() -> UniversalAddress.parse("1.2.3.4\n.0.1"))
			.withMessageContaining("1.2.3.4?.0.1");
	}

}
