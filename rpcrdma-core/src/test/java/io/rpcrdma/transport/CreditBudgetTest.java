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
	void theBudgetBoundsTheSumOfGrantsButNeverGrantsZero() {
		CreditBudget budget = new CreditBudget(10, 8);
		assertThat(budget.grow(0, 8)).isEqualTo(8);
		assertThat(budget.grow(0, 8)).isEqualTo(2);
		// Spent: a new connection still gets one credit (RFC 8166 §3.3.1).
		assertThat(budget.grow(0, 8)).isEqualTo(1);
		assertThat(budget.grow(0, 0)).isEqualTo(1);
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
	void sizesMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new CreditBudget(0, 1));
		assertThatIllegalArgumentException().isThrownBy(() -> new CreditBudget(1, 0));
	}

}
