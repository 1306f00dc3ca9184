package io.rpcrdma.verbs.conformance;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.verbs.CompletionHandler;
import io.rpcrdma.verbs.CompletionQueue;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * A completion handler that drains its queue into a blocking queue of {@link Completion}s,
 * with the verbs drain / re-arm / drain idiom, so tests can wait for completions with a
 * deadline instead of sleeping.
 */
public final class CompletionRecorder implements CompletionHandler {

	private final LinkedBlockingQueue<Completion> completions = new LinkedBlockingQueue<>();

	private final WorkCompletion[] batch = new WorkCompletion[16];

	private final Duration deadline;

	/**
	 * Creates a recorder.
	 * @param deadline how long {@link #next()} waits
	 */
	public CompletionRecorder(Duration deadline) {
		this.deadline = deadline;
	}

	/**
	 * Arms the queue for the first time.
	 * @param cq the queue this recorder handles
	 */
	public void start(CompletionQueue cq) {
		cq.requestNotification();
		drain(cq);
	}

	@Override
	public void onCompletion(CompletionQueue cq) {
		drain(cq);
		cq.requestNotification();
		drain(cq);
	}

	private synchronized void drain(CompletionQueue cq) {
		int n;
		while ((n = cq.poll(this.batch)) > 0) {
			for (int i = 0; i < n; i++) {
				this.completions.add(Completion.of(this.batch[i]));
			}
		}
	}

	/**
	 * The next completion, waiting up to the deadline.
	 * @return the completion
	 */
	public Completion next() {
		try {
			Completion completion = this.completions.poll(this.deadline.toMillis(), TimeUnit.MILLISECONDS);
			if (completion == null) {
				fail("No completion arrived within " + this.deadline);
			}
			return completion;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AssertionError("Interrupted", ex);
		}
	}

	/**
	 * The next {@code count} completions, waiting up to the deadline for each.
	 * @param count how many
	 * @return the completions in arrival order
	 */
	public List<Completion> next(int count) {
		List<Completion> result = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			result.add(next());
		}
		return result;
	}

	/**
	 * The next completion, which must be a given work request's and have a given status.
	 * @param wrId the work request id it must have
	 * @param status the status it must have
	 * @return the completion
	 */
	public Completion expect(long wrId, CompletionStatus status) {
		Completion completion = next();
		if (completion.wrId() != wrId || completion.status() != status) {
			fail("Expected work request " + wrId + " to complete with " + status + " but got " + completion);
		}
		return completion;
	}

	/**
	 * The next {@code count} completions, each of which must have one status.
	 * @param count how many
	 * @param status the status every one of them has
	 * @return the completions in arrival order
	 */
	public List<Completion> next(int count, CompletionStatus status) {
		List<Completion> result = next(count);
		for (Completion completion : result) {
			if (completion.status() != status) {
				fail("Expected " + count + " completions with " + status + " but got " + result);
			}
		}
		return result;
	}

	/**
	 * The completions that arrived so far and were not taken.
	 * @return them, removed from the recorder
	 */
	public List<Completion> drainRecorded() {
		List<Completion> result = new ArrayList<>();
		this.completions.drainTo(result);
		return result;
	}

}
