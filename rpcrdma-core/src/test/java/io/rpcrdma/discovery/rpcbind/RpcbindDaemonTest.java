package io.rpcrdma.discovery.rpcbind;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Registration and resolution against the real rpcbind, with {@code rpcinfo} as the
 * independent reader of what it holds (RFC 1833, RFC 5666 §10 and §12). Program numbers come
 * from the transient range (RFC 5531 §7.3: 0x40000000 to 0x5fffffff), fresh per test, so a
 * reused host rpcbind is not disturbed.
 */
@Tag("conformance")
@ExtendWith(RpcbindDaemonExtension.class)
class RpcbindDaemonTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static int transientProgram() {
		return 0x4000_0000 + ThreadLocalRandom.current().nextInt(0x1000_0000);
	}

	private static InetSocketAddress at(String address, int port) throws Exception {
		return new InetSocketAddress(InetAddress.getByName(address), port);
	}

	/** rpcinfo's table row: program, version, netid, address, service, owner. */
	private static Pattern row(int program, int version, String netid, String address) {
		return Pattern.compile("(?m)^\\s*" + Integer.toUnsignedString(program) + "\\s+" + version + "\\s+"
				+ Pattern.quote(netid) + "\\s+" + Pattern.quote(address) + "\\s");
	}

	@Test
	void rpcinfoListsTheRegisteredProgramsUnderNetidRdmaUntilTheRegistrationCloses(RpcbindDaemon rpcbind) throws Exception {
		int program = transientProgram();
		RpcbindRegistration registration = RpcbindRegistration.register(rpcbind.address(), TIMEOUT,
				at("127.0.0.1", 20049), List.of(new ProgramVersion(program, 1), new ProgramVersion(program, 2)),
				RpcbindRegistration.DEFAULT_OWNER);
		String listed = rpcbind.rpcinfo("127.0.0.1");
		assertThat(listed).containsPattern(row(program, 1, "rdma", "127.0.0.1.78.81"))
			.containsPattern(row(program, 2, "rdma", "127.0.0.1.78.81"));

		registration.close();

		assertThat(rpcbind.rpcinfo("127.0.0.1")).doesNotContain(Integer.toUnsignedString(program));
	}

	@Test
	void anIpv6ServerIsRegisteredUnderNetidRdma6(RpcbindDaemon rpcbind) throws Exception {
		int program = transientProgram();
		try (RpcbindRegistration registration = RpcbindRegistration.register(rpcbind.address(), TIMEOUT,
				at("::1", 20050), List.of(new ProgramVersion(program, 1)), "rpcrdma")) {
			assertThat(registration.mappings()).extracting(RpcbindMapping::netid).containsExactly("rdma6");
			assertThat(rpcbind.rpcinfo("127.0.0.1")).containsPattern(row(program, 1, "rdma6", "::1.78.82"));
			assertThat(new RpcbindResolver(TIMEOUT).resolve(rpcbind.address(), program, 1))
				.isEqualTo(at("::1", 20050));
		}
	}

	@Test
	void theResolverFindsWhatWasRegisteredAndNamesWhatIsThereWhenAVersionIsNot(RpcbindDaemon rpcbind)
			throws Exception {
		int program = transientProgram();
		RpcbindResolver resolver = new RpcbindResolver(TIMEOUT);
		try (RpcbindRegistration registration = RpcbindRegistration.register(rpcbind.address(), TIMEOUT,
				at("127.0.0.1", 40001), List.of(new ProgramVersion(program, 3)), "rpcrdma")) {
			assertThat(resolver.resolve(rpcbind.address(), program, 3)).isEqualTo(at("127.0.0.1", 40001));
			assertThatExceptionOfType(ProgramNotRegisteredException.class)
				.isThrownBy(() -> resolver.resolve(rpcbind.address(), program, 4))
				.withMessageContaining("version 4 is not registered")
				.withMessageContaining("it has only version 3 over rdma");
		}
		assertThatExceptionOfType(ProgramNotRegisteredException.class)
			.isThrownBy(() -> resolver.resolve(rpcbind.address(), program, 3))
			.withMessageContaining("no mapping of that program at all");
	}

	@Test
	void aServerOnTheWildcardAddressResolvesToTheHostThatWasAsked(RpcbindDaemon rpcbind) throws Exception {
		int program = transientProgram();
		try (RpcbindRegistration registration = RpcbindRegistration.register(rpcbind.address(), TIMEOUT,
				at("0.0.0.0", 40002), List.of(new ProgramVersion(program, 1)), "rpcrdma")) {
			assertThat(rpcbind.rpcinfo("127.0.0.1")).containsPattern(row(program, 1, "rdma", "0.0.0.0.156.66"));
			assertThat(new RpcbindResolver(TIMEOUT).resolve(rpcbind.address(), program, 1))
				.isEqualTo(at("127.0.0.1", 40002));
		}
	}

	/**
	 * Why the resolver reads DUMP: rpcbind answers GETADDR for the netid of the transport the
	 * query came over (tcp), not the query's r_netid.
	 */
	@Test
	void rpcbindAnswersGetaddrForTheQueryTransportsNetidNotTheRdmaOne(RpcbindDaemon rpcbind) throws Exception {
		int program = transientProgram();
		try (RpcbindRegistration registration = RpcbindRegistration.register(rpcbind.address(), TIMEOUT,
				at("127.0.0.1", 40003), List.of(new ProgramVersion(program, 1)), "rpcrdma");
				RpcbindClient client = RpcbindClient.connect(rpcbind.address(), TIMEOUT)) {
			RpcbindMapping query = new RpcbindMapping(program, 1, "rdma", "", "");
			assertThat(client.getAddress(query)).isEmpty();
			assertThat(client.getVersionAddress(query)).isEmpty();
			assertThat(client.dump()).anySatisfy((mapping) -> {
				assertThat(mapping.program()).isEqualTo(program);
				assertThat(mapping.netid()).isEqualTo("rdma");
				assertThat(mapping.address()).isEqualTo("127.0.0.1.156.67");
			});
			// rpcbind's own TCP mapping, asked for under netid rdma, comes back as tcp's.
			assertThat(client.getAddress(new RpcbindMapping(RpcbindClient.PROGRAM, 4, "rdma", "", "")))
				.hasValueSatisfying((address) -> assertThat(UniversalAddress.parse(address).port()).isEqualTo(111));
		}
	}

	@Test
	void aProgramHeldAtAnotherAddressFailsTheRegistrationAndUndoesWhatItHadRegistered(RpcbindDaemon rpcbind)
			throws Exception {
		int held = transientProgram();
		int fresh = held + 1;
		try (RpcbindRegistration other = RpcbindRegistration.register(rpcbind.address(), TIMEOUT,
				at("127.0.0.1", 40004), List.of(new ProgramVersion(held, 1)), "other")) {
			assertThatExceptionOfType(RpcbindRegistrationException.class)
				.isThrownBy(() -> RpcbindRegistration.register(rpcbind.address(), TIMEOUT, at("127.0.0.1", 40005),
						List.of(new ProgramVersion(fresh, 1), new ProgramVersion(held, 1)), "rpcrdma"))
				.withMessageContaining("refused to register program 0x" + Integer.toHexString(held))
				.withMessageContaining("it maps it to 127.0.0.1.156.68 already");
			String listed = rpcbind.rpcinfo("127.0.0.1");
			assertThat(listed).doesNotContain(Integer.toUnsignedString(fresh))
				.containsPattern(row(held, 1, "rdma", "127.0.0.1.156.68"));
		}
	}

	@Test
	void aMappingLeftAtTheSameAddressByAnEarlierRunIsTakenOverAndRemovedAtClose(RpcbindDaemon rpcbind)
			throws Exception {
		int program = transientProgram();
		try (RpcbindClient client = RpcbindClient.connect(rpcbind.address(), TIMEOUT)) {
			assertThat(client.set(new RpcbindMapping(program, 1, "rdma", "127.0.0.1.156.70", "crashed"))).isTrue();
		}
		RpcbindRegistration registration = RpcbindRegistration.register(rpcbind.address(), TIMEOUT,
				at("127.0.0.1", 40006), List.of(new ProgramVersion(program, 1)), "rpcrdma");
		assertThat(registration.mappings()).hasSize(1);

		registration.close();

		assertThat(rpcbind.rpcinfo("127.0.0.1")).doesNotContain(Integer.toUnsignedString(program));
	}

	@Test
	void unsetRemovesOnlyTheRdmaNetidsMappings(RpcbindDaemon rpcbind) throws Exception {
		int program = transientProgram();
		try (RpcbindClient client = RpcbindClient.connect(rpcbind.address(), TIMEOUT)) {
			assertThat(client.set(new RpcbindMapping(program, 1, "tcp", "127.0.0.1.156.71", "other"))).isTrue();
			RpcbindRegistration.register(rpcbind.address(), TIMEOUT, at("127.0.0.1", 40007),
					List.of(new ProgramVersion(program, 1)), "rpcrdma").close();
			String listed = rpcbind.rpcinfo("127.0.0.1");
			assertThat(listed).containsPattern(row(program, 1, "tcp", "127.0.0.1.156.71"))
				.doesNotContainPattern(row(program, 1, "rdma", "127.0.0.1.156.71"));
			assertThat(client.unset(new RpcbindMapping(program, 1, "tcp", "", ""))).isTrue();
		}
	}

}
