package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.VersionRange;

/**
 * The requester's version negotiation on its own (draft-cel-nfsv4-rpcrdma-version-two §5).
 */
class VersionNegotiationTest {

	private static final VersionRange BOTH = new VersionRange(1, 2);

	private final PeerVersionCache cache = new PeerVersionCache(8);

	private final InetSocketAddress responder = InetSocketAddress.createUnresolved("responder", 20049);

	@Test
	void callsGoInThePreferredVersionUntilOneIsRemembered() {
		assertThat(new VersionNegotiation(BOTH, 2, this.cache, this.responder).version()).isEqualTo(2);
		this.cache.put(this.responder, 1);
		VersionNegotiation remembered = new VersionNegotiation(BOTH, 2, this.cache, this.responder);
		assertThat(remembered.version()).isEqualTo(1);
		assertThat(remembered.isConfirmed()).isFalse();
	}

	@Test
	void aRememberedVersionThisSideNoLongerSpeaksIsIgnored() {
		this.cache.put(this.responder, 2);
		assertThat(new VersionNegotiation(new VersionRange(1, 1), 1, this.cache, this.responder).version())
			.isEqualTo(1);
	}

	@Test
	void errVersMovesToTheHighestCommonVersionAndRemembersIt() {
		VersionNegotiation versions = new VersionNegotiation(BOTH, 2, this.cache, this.responder);
		assertThat(versions.sending()).isEqualTo(2);
		assertThat(versions.afterErrVers(new VersionRange(1, 1), 2)).isEqualTo(1);
		assertThat(versions.version()).isEqualTo(1);
		assertThat(this.cache.get(this.responder)).isEqualTo(1);
	}

	@Test
	void errVersWithNoCommonVersionOrTheRefusedOneChangesNothing() {
		VersionNegotiation versions = new VersionNegotiation(new VersionRange(2, 2), 2, this.cache, this.responder);
		assertThat(versions.afterErrVers(new VersionRange(1, 1), 2)).isZero();
		assertThat(versions.afterErrVers(new VersionRange(1, 2), 2)).isEqualTo(2);
		assertThat(versions.version()).isEqualTo(2);
		assertThat(this.cache.get(this.responder)).isZero();
	}

	@Test
	void aReplyConfirmsItsVersion() {
		VersionNegotiation versions = new VersionNegotiation(BOTH, 2, this.cache, this.responder);
		versions.confirm(1);
		assertThat(versions.isConfirmed()).isTrue();
		assertThat(versions.version()).isEqualTo(1);
		assertThat(this.cache.get(this.responder)).isEqualTo(1);
	}

	@Test
	void losingTheConnectionAfterAnUnansweredVersionTwoCallFallsBackToVersionOne() {
		VersionNegotiation versions = new VersionNegotiation(BOTH, 2, this.cache, this.responder);
		versions.sending();
		versions.connectionLost();
		assertThat(this.cache.get(this.responder)).isEqualTo(1);
	}

	@Test
	void losingTheConnectionBeforeSendingOrAfterAConfirmationRemembersNothingNew() {
		new VersionNegotiation(BOTH, 2, this.cache, this.responder).connectionLost();
		assertThat(this.cache.get(this.responder)).isZero();
		VersionNegotiation confirmed = new VersionNegotiation(BOTH, 2, this.cache, this.responder);
		confirmed.sending();
		confirmed.confirm(2);
		confirmed.connectionLost();
		assertThat(this.cache.get(this.responder)).isEqualTo(2);
	}

}
