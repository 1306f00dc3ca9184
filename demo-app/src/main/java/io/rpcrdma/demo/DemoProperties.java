package io.rpcrdma.demo;

import java.time.Duration;

import io.rpcrdma.demo.store.ObjectStore;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The demo's settings, {@code demo.*}. The profiles set {@code demo.mode}.
 */
@ConfigurationProperties("demo")
public class DemoProperties {

	/** What this process does. */
	private Mode mode = Mode.ALL_IN_ONE;

	private final Store store = new Store();

	private final Workload workload = new Workload();

	public Mode getMode() {
		return this.mode;
	}

	public void setMode(Mode mode) {
		this.mode = mode;
	}

	public Store getStore() {
		return this.store;
	}

	public Workload getWorkload() {
		return this.workload;
	}

	/** What a demo process does. */
	public enum Mode {

		/** Serve the store, run the workload against it, keep serving (the default). */
		ALL_IN_ONE,

		/** Serve the store until stopped (profile {@code server}). */
		SERVER,

		/** Run the workload, or one command, against a remote store and exit (profile {@code client}). */
		CLIENT

	}

	/** The store's limits. */
	public static class Store {

		/** The largest object the store accepts, at most 32MB. */
		private DataSize maxObjectSize = DataSize.ofBytes(ObjectStore.MAX_OBJECT_BYTES);

		/** The most bytes the store holds. */
		private DataSize capacity = DataSize.ofMegabytes(512);

		public DataSize getMaxObjectSize() {
			return this.maxObjectSize;
		}

		public void setMaxObjectSize(DataSize maxObjectSize) {
			this.maxObjectSize = maxObjectSize;
		}

		public DataSize getCapacity() {
			return this.capacity;
		}

		public void setCapacity(DataSize capacity) {
			this.capacity = capacity;
		}

	}

	/** The workload the client runs. */
	public static class Workload {

		/** How long the workload runs. */
		private Duration duration = Duration.ofSeconds(15);

		/** Stop after this many calls even if time is left; 0 for no limit. */
		private long maxCalls;

		/** Concurrent calling threads. */
		private int threads = 4;

		/** The largest object the workload stores (a few are; most are small). */
		private DataSize largestObject = DataSize.ofMegabytes(24);

		/** Where in the store the workload's objects live. */
		private String keyPrefix = "demo/";

		/** Makes the sequence of calls repeatable. */
		private long seed = 1;

		public Duration getDuration() {
			return this.duration;
		}

		public void setDuration(Duration duration) {
			this.duration = duration;
		}

		public long getMaxCalls() {
			return this.maxCalls;
		}

		public void setMaxCalls(long maxCalls) {
			this.maxCalls = maxCalls;
		}

		public int getThreads() {
			return this.threads;
		}

		public void setThreads(int threads) {
			this.threads = threads;
		}

		public DataSize getLargestObject() {
			return this.largestObject;
		}

		public void setLargestObject(DataSize largestObject) {
			this.largestObject = largestObject;
		}

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

		public long getSeed() {
			return this.seed;
		}

		public void setSeed(long seed) {
			this.seed = seed;
		}

	}

}
