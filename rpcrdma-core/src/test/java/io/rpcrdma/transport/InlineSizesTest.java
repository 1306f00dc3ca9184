package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.rpcrdma.protocol.Rfc8797PrivateData;
import io.rpcrdma.verbs.PrivateData;

/**
 * A connection's inline thresholds on their own (RFC 8166 §3.3.2, RFC 8797 §4, RFC 5666 §6.2).
 */
class InlineSizesTest {

	private final TransportConfig config = TransportConfig.defaults().withInlineThresholds(8192, 8192);

	private final InlineSizes sizes = new InlineSizes(this.config, this.config.receiveBufferSize());

	@Test
	void withoutWordFromThePeerEachVersionKeepsItsDefault() {
		assertThat(this.sizes.sendThreshold(1)).isEqualTo(TransportConfig.DEFAULT_INLINE_THRESHOLD_V1);
		assertThat(this.sizes.sendThreshold(2)).isEqualTo(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2);
		assertThat(this.sizes.receiveThreshold(1)).isEqualTo(TransportConfig.DEFAULT_INLINE_THRESHOLD_V1);
		assertThat(this.sizes.peerAcceptsInvalidate()).isFalse();
	}

	@Test
	void thePeersPrivateDataSetsTheSmallerOfBothSidesEachWay() {
		this.sizes.acceptPeerPrivateData(PrivateData.of(Rfc8797PrivateData.of(true, 2048, 16384).encode()));
		assertThat(this.sizes.sendThreshold(2)).isEqualTo(8192);
		assertThat(this.sizes.receiveThreshold(2)).isEqualTo(2048);
		assertThat(this.sizes.peerAcceptsInvalidate()).isTrue();
	}

	@Test
	void thisSideSendsItsReceiveSizeBothWays() {
		Rfc8797PrivateData sent = Rfc8797PrivateData.decode(this.sizes.localPrivateData().bytes()).orElseThrow();
		assertThat(sent.maxSendSize()).isEqualTo(8192);
		assertThat(sent.maxReceiveSize()).isEqualTo(8192);
	}

	@Test
	void remoteInvalidationIsAdvertisedOnlyWhereTheProviderCanBeInvalidatedRemotely() {
		assertThat(this.config.remoteInvalidate()).isTrue();
		assertThat(Rfc8797PrivateData.decode(this.sizes.localPrivateData().bytes()).orElseThrow().remoteInvalidate())
			.isTrue();
		// disni's regions come from ibv_reg_mr: a peer's Send With Invalidate naming one fails on
		// the device (IBV_WC_REM_INV_REQ_ERR), so the flag must not be sent (RFC 8797 §2.2).
		InlineSizes cannot = new InlineSizes(this.config, this.config.receiveBufferSize(), false);
		assertThat(Rfc8797PrivateData.decode(cannot.localPrivateData().bytes()).orElseThrow().remoteInvalidate())
			.isFalse();
	}

	@Test
	void aResponderWhoseProviderCannotInvalidateRemotelyNeverSendsSendWithInvalidate() {
		PrivateData acceptsInvalidate = PrivateData.of(Rfc8797PrivateData.of(true, 4096, 4096).encode());
		this.sizes.acceptPeerPrivateData(acceptsInvalidate);
		assertThat(this.sizes.peerAcceptsInvalidate()).isTrue();
		InlineSizes cannot = new InlineSizes(this.config, this.config.receiveBufferSize(), false);
		cannot.acceptPeerPrivateData(acceptsInvalidate);
		assertThat(cannot.peerAcceptsInvalidate()).isFalse();
	}

	@Test
	void sizesLearntInBandApplyAsPrivateDataWouldAndKeepTheInvalidateFlag() {
		this.sizes.acceptPeerPrivateData(PrivateData.of(Rfc8797PrivateData.of(true, 1024, 1024).encode()));
		this.sizes.applyInBandSizes(4096, 100);
		assertThat(this.sizes.receiveThreshold(1)).isEqualTo(4096);
		// Below what every receiver supports: raised to the 1024-byte minimum.
		assertThat(this.sizes.sendThreshold(1)).isEqualTo(Rfc8797PrivateData.MIN_SIZE);
		assertThat(this.sizes.peerAcceptsInvalidate()).isTrue();
	}

	@Test
	void withPrivateDataTurnedOffNothingIsSentAndNothingTaken() {
		TransportConfig off = this.config.withConnectionConfiguration(false, CcpMode.WHEN_NEEDED, Duration.ofSeconds(5));
		InlineSizes quiet = new InlineSizes(off, off.receiveBufferSize());
		assertThat(quiet.localPrivateData().bytes()).isEmpty();
		quiet.acceptPeerPrivateData(PrivateData.of(Rfc8797PrivateData.of(true, 16384, 16384).encode()));
		assertThat(quiet.sendThreshold(2)).isEqualTo(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2);
		assertThat(quiet.peerAcceptsInvalidate()).isFalse();
	}

}
