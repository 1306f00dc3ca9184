package io.rpcrdma.benchmarks.attack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rpcrdma.benchmarks.compare.Machine;
import io.rpcrdma.server.DuplicateRequestCacheStats;
import io.rpcrdma.transport.TransportStats;

/**
 * How the report judges an attack: each round's ratio pairs the figures under attack with the
 * same phase's figures alone, the median of those ratios meets the target only at 0.8 or more
 * and with no honest failure.
 */
class UnderAttackReportTest {

	private static final AttackedServer.Snapshot IDLE = new AttackedServer.Snapshot(3, 0, 0, 0, TransportStats.ZERO,
			new DuplicateRequestCacheStats(0, 0, 0, 0, 0, 0, 0, 0, 0), 0);

	@Test
	void theRatioIsTheMedianOfEachRoundsRatioToItsOwnFiguresAlone() {
		List<PhaseResult> phases = new ArrayList<>();
		// Round 1 alone at 1000 calls/s, round 2 alone at 500 (the neighbours' load moved):
		// each round's ratio is to its own figure alone, not to a median of all of them.
		phases.add(phase(1, "flood", 1000, 900, 0));
		phases.add(phase(2, "flood", 500, 450, 0));
		phases.add(phase(3, "flood", 800, 400, 0));
		phases.add(phase(1, "churn", 1000, 850, 0));
		phases.add(phase(2, "churn", 1000, 800, 1));
		UnderAttack.Result result = result(phases, "flood", "churn");

		List<UnderAttackReport.Effect> effects = UnderAttackReport.effects(result);

		UnderAttackReport.Effect flood = effects.get(0);
		assertThat(flood.attack()).isEqualTo("flood");
		assertThat(flood.ratio()).isEqualTo(0.9);
		assertThat(flood.lowest()).isEqualTo(0.5);
		assertThat(flood.highest()).isEqualTo(0.9);
		assertThat(flood.baseline()).isEqualTo(800);
		assertThat(flood.met()).isTrue();
		UnderAttackReport.Effect churn = effects.get(1);
		assertThat(churn.ratio()).isEqualTo(0.825);
		assertThat(churn.failures()).isEqualTo(1);
		assertThat(churn.met()).as("a ratio over 0.8 with an honest failure").isFalse();

		String markdown = UnderAttackReport.markdown(result);
		assertThat(markdown).contains("| flood | 64 B echo | 800 | 450 | 0.90 [0.50–0.90] |",
				"| churn | 64 B echo | 1,000 | 825 | 0.83 [0.80–0.85] |", "| 1 | **missed** |",
				"decide nothing");
		assertThat(UnderAttackReport.csv(result)).contains("flood,64 B echo,800.000,450.000,0.900,0.500,0.900");
		assertThat(UnderAttackReport.roundsCsv(result).lines()).hasSize(1 + 2 * phases.size())
			.contains("3,flood,true,64 B echo,400.000,100.000,4000,0,5,1,2,3,0,0.500");
	}

	@Test
	void theTargetIsMissedBelowFourFifths() {
		UnderAttack.Result result = result(List.of(phase(1, "pin", 1000, 790, 0)), "pin");

		assertThat(UnderAttackReport.effects(result).get(0).met()).isFalse();
	}

	@Test
	void alikeFailuresAreListedOnceWhateverTheirPortsAndXids() {
		assertThat(UnderAttackReport.general("The server at /127.0.0.1:45911 refused the reply to XID 0x762db208"
				+ " (Rdma2ErrBadHeader[xid=-1318814860, credits=32])"))
			.isEqualTo("The server at /127.0.0.1:port refused the reply to XID x (Rdma2ErrBadHeader[xid=x, credits=32])");
	}

	private static PhaseResult phase(int round, String attack, double alone, double attacked, long failures) {
		HonestLoad.Figures before = new HonestLoad.Figures(HonestLoad.Kind.SMALL, alone, 100, (long) (alone * 10), 0,
				null);
		HonestLoad.Figures during = new HonestLoad.Figures(HonestLoad.Kind.SMALL, attacked, 100, (long) (attacked * 10),
				failures, (failures > 0) ? "java.lang.IllegalStateException: lost" : null);
		Attack.Counts counts = new Attack.Counts(5, 1, 2, 3, 0, null, null, 500_000_000L, 1_000_000_000L);
		return new PhaseResult(round, attack, List.of(before), List.of(during), counts, IDLE, IDLE, IDLE, true, true, 0);
	}

	private static UnderAttack.Result result(List<PhaseResult> phases, String... attacks) {
		List<UnderAttack.Described> described = new ArrayList<>();
		for (String attack : attacks) {
			described.add(new UnderAttack.Described(attack, "what " + attack + " does", Attack.Evidence.ATTEMPTS));
		}
		return new UnderAttack.Result(AttackPace.QUICK, Machine.describe().ended(), phases, described, List.of());
	}

}
