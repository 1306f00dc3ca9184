package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A connection's grant: the floor, not charged to the budget, until its first request.
 */
class CreditGrantTest {

	@Test
	void aConnectionThatNeverAsksHoldsTheFloorOutsideTheBudget() {
		CreditBudget budget = new CreditBudget(64, 32);
		CreditGrant idle = new CreditGrant(budget, 32);
		assertThat(idle.decided()).isEqualTo(CreditBudget.FLOOR);
		assertThat(idle.advertised()).isEqualTo(CreditBudget.FLOOR);
		assertThat(budget.granted()).isZero();
		assertThat(budget.connections()).isZero();
		idle.release();
		assertThat(budget.granted()).isZero();
		assertThat(budget.connections()).isZero();
	}

	@Test
	void theFirstRequestChargesTheBudgetForWhatItAsksAndClosingGivesItBack() {
		CreditBudget budget = new CreditBudget(64, 32);
		CreditGrant grant = new CreditGrant(budget, 32);
		assertThat(grant.onRequest(16)).as("the first request").isTrue();
		assertThat(grant.decided()).isEqualTo(16);
		assertThat(budget.granted()).isEqualTo(16);
		assertThat(budget.connections()).isEqualTo(1);
		assertThat(grant.onRequest(32)).as("a later request").isFalse();
		assertThat(grant.decided()).isEqualTo(32);
		grant.release();
		assertThat(budget.granted()).isZero();
		assertThat(budget.connections()).isZero();
	}

	@Test
	void aFirstRequestAskingForOneIsGrantedOne() {
		CreditBudget budget = new CreditBudget(64, 32);
		CreditGrant grant = new CreditGrant(budget, 32);
		grant.onRequest(1);
		assertThat(grant.decided()).isEqualTo(1);
		assertThat(budget.granted()).isEqualTo(1);
	}

}
