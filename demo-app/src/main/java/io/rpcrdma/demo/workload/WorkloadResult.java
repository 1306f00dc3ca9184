package io.rpcrdma.demo.workload;

import java.time.Duration;
import java.util.List;

/**
 * What a workload run did.
 *
 * @param elapsed how long it ran
 * @param threads how many threads called
 * @param operations statistics per operation, in {@link Operation} order, then {@code all}
 * @param notFound reads of deleted objects that failed as they should, with an
 * {@link io.rpcrdma.demo.store.ObjectNotFoundException} from the server
 * @param failure the first unexpected failure, which stopped the run, or {@code null}
 */
public record WorkloadResult(Duration elapsed, int threads, List<OperationStats> operations, long notFound,
		Throwable failure) {

	/** @return the statistics over all calls */
	public OperationStats total() {
		return this.operations.get(this.operations.size() - 1);
	}

	/** @return completed calls per second */
	public double callsPerSecond() {
		return perSecond(total().calls());
	}

	/** @return object bytes moved per second, in MB (10^6 bytes) */
	public double megabytesPerSecond() {
		return perSecond(total().bytes()) / 1e6;
	}

	private double perSecond(double value) {
		double seconds = this.elapsed.toNanos() / 1e9;
		return (seconds > 0) ? value / seconds : 0;
	}

}
