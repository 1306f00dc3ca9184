package io.rpcrdma.interop;

import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@link GuestTestRunner} reported from the guest: its summary line's counts, its lines
 * about each failure, abort and skip, and the run itself (exit status, whole output).
 *
 * @param found the tests discovered
 * @param succeeded the tests that passed
 * @param skipped the tests not run because they or their class were disabled
 * @param failed the tests and containers that failed
 * @param aborted the tests and containers aborted (an assumption did not hold)
 * @param details the runner's {@code GUEST-TEST FAILED|ABORTED|SKIPPED <name>: <reason>} lines
 * @param run the guest JVM's exit status and output
 */
public record GuestTestSummary(int found, int succeeded, int skipped, int failed, int aborted, List<String> details,
		GuestCommandResult run) {

	private static final Pattern SUMMARY = Pattern.compile("^" + GuestTestRunner.SUMMARY
			+ " found=(\\d+) succeeded=(\\d+) skipped=(\\d+) failed=(\\d+) aborted=(\\d+)$", Pattern.MULTILINE);

	private static final Pattern DETAIL = Pattern.compile("^" + GuestTestRunner.DETAIL + " (FAILED|ABORTED|SKIPPED) .*$",
			Pattern.MULTILINE);

	/**
	 * Reads the runner's report from a run's output (the last summary line, should a test
	 * print one of its own).
	 * @param run the guest JVM's run
	 * @return the summary
	 * @throws LabException if the output has no summary line (the JVM did not start, crashed or
	 * was killed), with the output
	 */
	public static GuestTestSummary parse(GuestCommandResult run) {
		Matcher matcher = SUMMARY.matcher(run.output());
		MatchResult last = null;
		while (matcher.find()) {
			last = matcher.toMatchResult();
		}
		if (last == null) {
			throw new LabException("the guest test runner printed no summary (exit status " + run.exitStatus() + "):\n"
					+ run.output());
		}
		List<String> details = DETAIL.matcher(run.output()).results().map(MatchResult::group).toList();
		return new GuestTestSummary(count(last, 1), count(last, 2), count(last, 3), count(last, 4), count(last, 5), details,
				run);
	}

	private static int count(MatchResult match, int group) {
		return Integer.parseInt(match.group(group));
	}

	/**
	 * The details about one kind of outcome.
	 * @param outcome {@code FAILED}, {@code ABORTED} or {@code SKIPPED}
	 * @return those lines
	 */
	public List<String> details(String outcome) {
		return this.details.stream().filter((line) -> line.startsWith(GuestTestRunner.DETAIL + " " + outcome + " ")).toList();
	}

	/**
	 * The summary line, as the runner printed it.
	 * @return the line
	 */
	@Override
	public String toString() {
		return GuestTestRunner.SUMMARY + " found=" + this.found + " succeeded=" + this.succeeded + " skipped="
				+ this.skipped + " failed=" + this.failed + " aborted=" + this.aborted
				+ (this.details.isEmpty() ? "" : "\n" + String.join("\n", this.details));
	}

}
