package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/**
 * A responder's credit budget across connections.
 */
class CreditBudgetTest {

	@Test
	void aConnectionGetsWhatItAsksUpToItsShare() {
		CreditBudget budget = new CreditBudget(100, 16);
		assertThat(budget.grow(0, 8)).isEqualTo(8);
		assertThat(budget.grow(0, 64)).isEqualTo(16);
		assertThat(budget.granted()).isEqualTo(24);
	}

	@Test
	void theBudgetBoundsTheSumOfGrantsButNeverGrantsLessThanTheFloor() {
		CreditBudget budget = new CreditBudget(10, 8);
		assertThat(budget.grow(0, 8)).isEqualTo(8);
		assertThat(budget.grow(0, 8)).isEqualTo(2);
		// Spent: a new connection still gets the floor (RFC 8166 §3.3.1 asks for at least one;
		// two keep a connection with one slow call able to make another).
		assertThat(budget.grow(0, 8)).isEqualTo(CreditBudget.FLOOR);
		// Asking for none (or one): one, never zero.
		assertThat(budget.grow(0, 0)).isEqualTo(1);
		assertThat(budget.granted()).as("the floor is granted beyond the budget").isEqualTo(13);
		// A connection configured for one credit gets one.
		assertThat(new CreditBudget(10, 1).grow(0, 8)).isEqualTo(1);
	}

	@Test
	void aGrantGrowsLaterAndReleasedCreditsAreReused() {
		CreditBudget budget = new CreditBudget(10, 10);
		int first = budget.grow(0, 6);
		int second = budget.grow(0, 6);
		assertThat(second).isEqualTo(4);
		budget.release(first);
		assertThat(budget.grow(second, 6)).isEqualTo(6);
		assertThat(budget.grow(6, 3)).isEqualTo(6);
	}

	@Test
	void aBusyConnectionGrowsBeyondItsFairShareOnlyWhileAQuarterOfTheBudgetIsFree() {
		CreditBudget budget = new CreditBudget(100, 64);
		int busy = budget.grow(0, 2);
		for (int quiet = 0; quiet < 9; quiet++) {
			assertThat(budget.grow(0, 2)).isEqualTo(2);
		}
		// Ten connections: a fair share of 10. 20 of 100 granted, so the busy one may double
		// while three quarters stay within reach: 4, 8, 16, 32, then it stops at its share.
		busy = budget.grow(busy, 4);
		busy = budget.grow(busy, 8);
		busy = budget.grow(busy, 16);
		busy = budget.grow(busy, 32);
		assertThat(busy).isEqualTo(32);
		assertThat(budget.grow(busy, 64)).as("beyond 75 granted: no more than its share, which it has").isEqualTo(32);
		assertThat(budget.heldBack()).isEqualTo(1);
	}

	@Test
	void aContendedBudgetTrimsAConnectionAboveItsFairShareAndAQuietOneGrowsAgain() {
		CreditBudget budget = new CreditBudget(40, 40);
		int busy = budget.grow(0, 30);
		assertThat(busy).isEqualTo(30);
		assertThat(budget.trim(busy)).as("uncontended: kept").isEqualTo(30);
		int quiet = budget.grow(0, 2);
		int other = budget.grow(0, 2);
		assertThat(budget.granted()).isEqualTo(34);
		assertThat(budget.grow(quiet, 4)).as("contended, within its share of 13").isEqualTo(4);
		quiet = 4;
		// More than three quarters granted: the busy connection goes back to its share.
		busy = budget.trim(busy);
		assertThat(busy).isEqualTo(13);
		assertThat(budget.granted()).isEqualTo(13 + 4 + other);
		assertThat(budget.grow(quiet, 8)).isEqualTo(8);
		assertThat(budget.trim(8)).isEqualTo(8);
	}

	@Test
	void underPressureAConnectionIsTrimmedToItsFairShareButNeverBelowTheFloor() {
		CreditBudget budget = new CreditBudget(8, 32);
		int first = budget.grow(0, 32);
		assertThat(first).as("the whole budget, its fair share alone").isEqualTo(8);
		for (int i = 0; i < 7; i++) {
			assertThat(budget.grow(0, 32)).isEqualTo(CreditBudget.FLOOR);
		}
		assertThat(budget.trim(first)).as("a share of 8 / 8 = 1, raised to the floor").isEqualTo(CreditBudget.FLOOR);
		assertThat(budget.granted()).isEqualTo(8 * CreditBudget.FLOOR);
	}

	@Test
	void aShrunkGrantGoesBackToTheBudgetAndAClosedConnectionNoLongerCountsForTheShare() {
		CreditBudget budget = new CreditBudget(10, 10);
		int first = budget.grow(0, 8);
		budget.shrink(first, 2);
		assertThat(budget.granted()).isEqualTo(2);
		assertThat(budget.connections()).isEqualTo(1);
		budget.release(2);
		assertThat(budget.granted()).isZero();
		assertThat(budget.connections()).isZero();
		assertThatIllegalArgumentException().isThrownBy(() -> budget.shrink(4, 0));
		assertThatIllegalArgumentException().isThrownBy(() -> budget.shrink(4, 5));
	}

	@Test
	void sizesMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new CreditBudget(0, 1));
		assertThatIllegalArgumentException().isThrownBy(() -> new CreditBudget(1, 0));
	}

}
