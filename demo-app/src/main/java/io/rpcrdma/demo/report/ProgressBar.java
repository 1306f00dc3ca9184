package io.rpcrdma.demo.report;

import java.io.Console;
import java.io.PrintStream;
import java.util.Locale;

import io.rpcrdma.demo.workload.ProgressListener;

/**
 * A one-line progress bar redrawn in place with {@code \r} on a terminal; elsewhere (a pipe,
 * a file, CI logs) one plain line per quarter of the run, so logs do not fill with redraws.
 */
public final class ProgressBar implements ProgressListener {

	private static final int WIDTH = 30;

	private final PrintStream out;

	private final boolean terminal;

	private int quartersShown;

	private boolean finished;

	/**
	 * @param out where to draw
	 * @param terminal whether {@code out} is an interactive terminal
	 */
	public ProgressBar(PrintStream out, boolean terminal) {
		this.out = out;
		this.terminal = terminal;
	}

	/**
	 * @return whether standard output is an interactive terminal: a console exists and, on
	 * Java 22 and later where it always does, {@code Console.isTerminal()} says so
	 */
	public static boolean stdoutIsTerminal() {
		Console console = System.console();
		if (console == null) {
			return false;
		}
		try {
			return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
		}
		catch (ReflectiveOperationException ex) {
			return true;
		}
	}

	@Override
	public void progress(double fraction, long calls, long bytes, long elapsedNanos) {
		if (this.finished) {
			return;
		}
		double seconds = Math.max(elapsedNanos, 1) / 1e9;
		String figures = String.format(Locale.ROOT, "%3.0f%%  %,8d calls  %7.0f calls/s  %7.1f MB/s", fraction * 100, calls,
				calls / seconds, bytes / seconds / 1e6);
		if (this.terminal) {
			int filled = (int) Math.round(fraction * WIDTH);
			// \r returns to the line start; ESC[K clears what a longer previous line left.
			this.out.print("\r[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + figures + "\u001b[K");
			if (fraction >= 1) {
				this.out.println();
				this.finished = true;
			}
			this.out.flush();
			return;
		}
		int quarter = (int) Math.floor(fraction * 4);
		if (quarter > this.quartersShown || fraction >= 1) {
			this.quartersShown = quarter;
			this.out.println("workload " + figures.strip());
			this.finished = fraction >= 1;
		}
	}

	/** Ends the bar's line if the run stopped before it was full. */
	public void finish() {
		if (this.terminal && !this.finished) {
			this.out.println();
			this.out.flush();
		}
		this.finished = true;
	}

}
