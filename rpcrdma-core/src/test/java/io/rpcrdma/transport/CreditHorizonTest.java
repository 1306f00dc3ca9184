package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What a requester may have sent under the grants it was sent (RFC 8166 §3.3.1).
 */
class CreditHorizonTest {

	@Test
	void beforeAnyReplyOnlyTheFirstGrantsRequestsAreAllowed() {
		CreditHorizon horizon = new CreditHorizon(2);
		assertThat(horizon.mayStillArrive()).isEqualTo(2);
		assertThat(horizon.arrived()).isTrue();
		assertThat(horizon.arrived()).isTrue();
		assertThat(horizon.nextAllowed()).isFalse();
		assertThat(horizon.arrived()).isFalse();
	}

	@Test
	void aLoweredGrantBindsOnlyOnceTheRequestsTheLargerOneAllowedHaveArrived() {
		CreditHorizon horizon = new CreditHorizon(1);
		horizon.arrived();
		reply(horizon, 8, false);
		// The requester may now have up to 8 in flight: 1 answered + 8 = 9 in all.
		for (int i = 0; i < 8; i++) {
			assertThat(horizon.arrived()).isTrue();
		}
		// Each answered with a grant of 2: a requester that had not seen them may still have
		// sent up to request 9; one that saw the last may send up to 9 + 2.
		for (int i = 0; i < 8; i++) {
			reply(horizon, 2, false);
		}
		assertThat(horizon.mayStillArrive()).isEqualTo(2);
		horizon.arrived();
		horizon.arrived();
		assertThat(horizon.arrived()).as("a third under a grant of 2").isFalse();
	}

	@Test
	void aReplyStampedEarlierButPostedLaterIsCountedWithItsLargerGrant() {
		CreditHorizon horizon = new CreditHorizon(1);
		horizon.arrived();
		reply(horizon, 4, false);
		for (int i = 0; i < 4; i++) {
			horizon.arrived();
		}
		// Two replies in flight at once: the first stamped with 4, the second with 2 after the
		// grant shrank; the second may be posted first and the requester may process the first
		// last, keeping a grant of 4 after two replies.
		horizon.stamp(4, false, false);
		horizon.stamp(2, false, false);
		horizon.posted();
		horizon.posted();
		// 3 replies processed + 4 = 7 requests in all; 5 arrived.
		assertThat(horizon.mayStillArrive()).isEqualTo(2);
		assertThat(horizon.arrived()).isTrue();
		assertThat(horizon.arrived()).isTrue();
		assertThat(horizon.arrived()).isFalse();
	}

	@Test
	void aReplyAwaitingRdmaDoneFreesItsCreditOnlyWhenAcknowledged() {
		CreditHorizon horizon = new CreditHorizon(1);
		horizon.arrived();
		horizon.stamp(1, false, true);
		horizon.posted();
		assertThat(horizon.nextAllowed()).as("RFC 5666 §3.3: the credit is held until RDMA_DONE").isFalse();
		horizon.acknowledged();
		assertThat(horizon.arrived()).isTrue();
	}

	@Test
	void anErrorReplyCountsTheGrantOfTheLastOtherReplyWhichTheRequesterKeeps() {
		CreditHorizon horizon = new CreditHorizon(1);
		horizon.arrived();
		reply(horizon, 4, false);
		horizon.arrived();
		// An RDMA_ERROR carrying 1: a requester applying only non-error grants (draft §5) keeps 4.
		reply(horizon, 1, true);
		assertThat(horizon.mayStillArrive()).isEqualTo(4);
	}

	private static void reply(CreditHorizon horizon, int grant, boolean error) {
		horizon.stamp(grant, error, false);
		horizon.posted();
	}

}
