package io.rpcrdma.verbs.siw.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MpaNegotiatorTest {

	private final MpaNegotiator lenient = new MpaNegotiator(CrcPolicy.OFF_UNLESS_ASKED);

	private final MpaNegotiator strict = new MpaNegotiator(CrcPolicy.REQUIRE);

	@Test
	void crcIsOffWhenNeitherSideAsks() {
		MpaFrame request = this.lenient.request(MpaIrdOrd.of(4, 4), null);
		MpaFrame reply = this.lenient.acceptReply(request, MpaIrdOrd.of(4, 4), null);
		assertThat(request.crc()).isFalse();
		assertThat(reply.crc()).isFalse();
		assertThat(this.lenient.initiatorParameters(request, reply).crc()).isFalse();
		assertThat(this.lenient.responderParameters(request, reply).crc()).isFalse();
	}

	@Test
	void crcIsOnWhenTheInitiatorAsks() {
		MpaFrame request = this.strict.request(null, null);
		MpaFrame reply = this.lenient.acceptReply(request, null, null);
		assertThat(reply.crc()).isTrue();
		assertThat(this.strict.initiatorParameters(request, reply).crc()).isTrue();
		assertThat(this.lenient.responderParameters(request, reply).crc()).isTrue();
	}

	@Test
	void crcIsOnWhenOnlyTheResponderAsks() {
		MpaFrame request = this.lenient.request(null, null);
		MpaFrame reply = this.strict.acceptReply(request, null, null);
		assertThat(reply.crc()).isTrue();
		assertThat(this.lenient.initiatorParameters(request, reply).crc()).isTrue();
	}

	@Test
	void replyDroppingTheCrcWeAskedForIsRefused() {
		MpaFrame request = this.strict.request(null, null);
		MpaFrame badReply = new MpaFrame(MpaFrame.Kind.REPLY, false, false, false, 2, null, null);
		assertThatThrownBy(() -> this.strict.initiatorParameters(request, badReply))
			.isInstanceOf(MpaNegotiationException.class).hasMessageContaining("C=0");
	}

	@Test
	void requestAskingForMarkersGetsARejectReply() {
		MpaFrame markers = new MpaFrame(MpaFrame.Kind.REQUEST, true, true, false, 2, MpaIrdOrd.of(1, 1), null);
		assertThat(this.lenient.refusal(markers)).hasValueSatisfying(reason -> assertThat(reason).contains("markers"));
		assertThatThrownBy(() -> this.lenient.acceptReply(markers, MpaIrdOrd.of(1, 1), null))
			.isInstanceOf(MpaNegotiationException.class);
		MpaFrame reject = this.lenient.rejectReply(markers, "markers".getBytes());
		assertThat(reject.reject()).isTrue();
		assertThat(reject.markers()).isFalse();
		assertThat(reject.revision()).isEqualTo(2);
		assertThat(reject.enhanced()).isTrue();
	}

	@Test
	void replyAskingForMarkersIsRefused() {
		MpaFrame request = this.lenient.request(null, null);
		MpaFrame reply = new MpaFrame(MpaFrame.Kind.REPLY, true, false, false, 2, null, null);
		assertThatThrownBy(() -> this.lenient.initiatorParameters(request, reply))
			.isInstanceOf(MpaNegotiationException.class).hasMessageContaining("markers");
	}

	@Test
	void rejectReplyRaisesRejectedWithThePrivateData() {
		MpaFrame request = this.lenient.request(null, null);
		MpaFrame reject = this.lenient.rejectReply(request, "busy".getBytes());
		assertThatThrownBy(() -> this.lenient.initiatorParameters(request, reject)).isInstanceOf(MpaRejectedException.class)
			.satisfies(e -> {
				assertThat(((MpaRejectedException) e).reply().privateData()).isEqualTo("busy".getBytes());
				assertThat(((MpaRejectedException) e).terminateError()).isEmpty();
			});
	}

	@Test
	void enhancedExchangeReportsThePeersIrdOrd() {
		MpaFrame request = this.lenient.request(MpaIrdOrd.of(16, 8), null);
		MpaFrame reply = this.lenient.acceptReply(request, MpaIrdOrd.of(8, 16), null);
		assertThat(reply.enhanced()).isTrue();
		assertThat(this.lenient.initiatorParameters(request, reply).peerIrdOrd()).isEqualTo(MpaIrdOrd.of(8, 16));
		assertThat(this.lenient.responderParameters(request, reply).peerIrdOrd()).isEqualTo(MpaIrdOrd.of(16, 8));
	}

	@Test
	void revisionOneRequestGetsARevisionOneReply() {
		MpaFrame request = new MpaFrame(MpaFrame.Kind.REQUEST, false, false, false, 1, null, null);
		MpaFrame reply = this.lenient.acceptReply(request, null, null);
		assertThat(reply.revision()).isEqualTo(1);
		assertThat(reply.enhanced()).isFalse();
	}

	@Test
	void revisionOneReplyToAnEnhancedRequestIsAccepted() {
		MpaFrame request = this.lenient.request(MpaIrdOrd.of(4, 4), null);
		MpaFrame reply = new MpaFrame(MpaFrame.Kind.REPLY, false, false, false, 1, null, null);
		MpaConnectionParameters parameters = this.lenient.initiatorParameters(request, reply);
		assertThat(parameters.revision()).isEqualTo(1);
		assertThat(parameters.enhanced()).isFalse();
	}

	@Test
	void revisionTwoReplyWithoutIrdOrdToAnEnhancedRequestIsRefused() {
		MpaFrame request = this.lenient.request(MpaIrdOrd.of(4, 4), null);
		MpaFrame reply = new MpaFrame(MpaFrame.Kind.REPLY, false, false, false, 2, null, null);
		assertThatThrownBy(() -> this.lenient.initiatorParameters(request, reply))
			.isInstanceOf(MpaNegotiationException.class).hasMessageContaining("RFC 6581");
	}

	@Test
	void peerToPeerReplyMustPickAnOfferedRtr() {
		MpaFrame request = this.lenient.request(new MpaIrdOrd(4, 4, true, false, true, false), null);
		MpaFrame readRtr = new MpaFrame(MpaFrame.Kind.REPLY, false, false, false, 2, new MpaIrdOrd(4, 4, true, false, false, true), null);
		assertThatThrownBy(() -> this.lenient.initiatorParameters(request, readRtr))
			.isInstanceOf(MpaNegotiationException.class)
			.satisfies(e -> assertThat(((IwarpWireException) e).terminateError()).contains(TerminateError.MPA_NO_MATCHING_RTR));
		MpaFrame writeRtr = new MpaFrame(MpaFrame.Kind.REPLY, false, false, false, 2, new MpaIrdOrd(4, 4, true, false, true, false), null);
		assertThat(this.lenient.initiatorParameters(request, writeRtr).peerIrdOrd().writeRtr()).isTrue();
	}

	@Test
	void acceptReplyMustMatchTheRequestsEnhancement() {
		MpaFrame enhanced = this.lenient.request(MpaIrdOrd.of(4, 4), null);
		assertThatThrownBy(() -> this.lenient.acceptReply(enhanced, null, null)).isInstanceOf(IllegalArgumentException.class);
		MpaFrame plain = this.lenient.request(null, null);
		assertThatThrownBy(() -> this.lenient.acceptReply(plain, MpaIrdOrd.of(4, 4), null))
			.isInstanceOf(IllegalArgumentException.class);
	}

}
