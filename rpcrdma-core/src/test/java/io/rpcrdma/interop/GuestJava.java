package io.rpcrdma.interop;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Java in the lab guest: a host JDK ({@link GuestJdk}) and the test JVM's classpath
 * ({@link GuestStaging}) reach the guest through read-only virtio-9p shares mounted at their
 * host paths, so that a class of this build runs against the guest kernel's RDMA devices
 * ({@code siw0}, {@code rxe0}). A test gets it as a parameter, like {@link LabGuest}; it is
 * made once per run (the classpath is staged then) and a lab without a usable JDK skips the
 * tests that ask for it, saying why.
 * <p>
 * Running a JUnit class in the guest, with a JNI library built on the host:
 * <pre>
 * Path lib = java.share(Path.of("/path/to/disni/lib"));   // a directory holding libdisni.so
 * GuestTestSummary summary = java.runTests(List.of("io.rpcrdma.verbs.disni.DisniProviderConformanceTest"),
 *         List.of("-Djava.library.path=" + lib, "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED"),
 *         Duration.ofMinutes(10));
 * assertThat(summary.failed()).as("%s", summary).isZero();
 * </pre>
 * Each run is a fresh JVM started as a guest background job ({@link LabGuest#startJob}), so
 * a long run does not hang on one agent connection; its working directory is a fresh
 * {@code /tmp/java-N.d}. The JVM gets {@link #defaultJvmArgs()} before the caller's options
 * (a later option wins, so a caller can undo them). A run that outlives its timeout gets
 * {@code SIGQUIT} (the JVM prints its threads' stacks into the output), then {@code SIGKILL}
 * {@value #KILL_GRACE_SECONDS} s later.
 */
public final class GuestJava {

	static final int KILL_GRACE_SECONDS = 15;

	private static final AtomicInteger RUNS = new AtomicInteger();

	private final LabGuest guest;

	private final GuestJdk jdk;

	private final GuestStaging staging;

	private final List<String> defaultJvmArgs;

	private final String version;

	private final Duration versionTime;

	private final String preparation;

	private GuestJava(LabGuest guest, GuestJdk jdk, GuestStaging staging, List<String> defaultJvmArgs, String version,
			Duration versionTime, String preparation) {
		this.guest = guest;
		this.jdk = jdk;
		this.staging = staging;
		this.defaultJvmArgs = defaultJvmArgs;
		this.version = version;
		this.versionTime = versionTime;
		this.preparation = preparation;
	}

	/**
	 * The shares a guest is booted with so that it can run Java: the staging directory
	 * (emptied here, before QEMU opens it) and the JDK with the directories its links need.
	 * When there is no JDK for the guest the guest boots without them, and {@link #open} says
	 * why to the tests that need Java.
	 * @param workDirectory the lab's work directory ({@code target/interop-lab})
	 * @return the shares
	 */
	static List<GuestShare> shares(Path workDirectory) {
		try {
			return wantedShares(GuestStaging.emptied(stagingDirectory(workDirectory)), GuestJdk.locate());
		}
		catch (LabUnavailableException ex) {
			return List.of();
		}
	}

	private static List<GuestShare> wantedShares(GuestStaging staging, GuestJdk jdk) {
		List<GuestShare> shares = new ArrayList<>(jdk.shares());
		shares.add(staging.share());
		return shares;
	}

	/**
	 * Makes Java ready in a booted guest: stages the classpath, makes its class archive, mounts
	 * the shares and checks that {@code java -version} runs there.
	 * @param guest the guest, booted with {@link #shares}
	 * @param workDirectory the lab's work directory
	 * @return Java in the guest
	 * @throws LabUnavailableException if there is no JDK for the guest or it does not run there
	 */
	static GuestJava open(LabGuest guest, Path workDirectory) {
		GuestJdk jdk = GuestJdk.locate();
		GuestStaging staging = GuestStaging.existing(stagingDirectory(workDirectory));
		List<GuestShare> shares = wantedShares(staging, jdk);
		if (!guest.shares().containsAll(shares)) {
			throw new LabUnavailableException("the guest was booted without the shares of " + jdk.home() + " and "
					+ staging.directory());
		}
		long staged = System.nanoTime();
		staging.stageClasspath(GuestStaging.testClasspath());
		long archived = System.nanoTime();
		List<String> defaults = new ArrayList<>();
		if (guest.accelerator() == Accelerator.TCG) {
			// Under TCG, C2's compilations cost more than they save in runs this short (see
			// docs/interop.md, "Java in the guest").
			defaults.add("-XX:TieredStopAtLevel=1");
		}
		GuestClassArchive.create(jdk, staging).ifPresent((archive) -> defaults.add("-XX:SharedArchiveFile=" + archive));
		String preparation = "classpath staged in " + (archived - staged) / 1_000_000 + " ms (" + staging.counts()
				+ "), class archive made in " + (System.nanoTime() - archived) / 1_000_000 + " ms";
		for (GuestShare share : shares) {
			GuestCommandResult mounted = guest.exec(share.mountCommand(), Duration.ofSeconds(30));
			if (!mounted.succeeded()) {
				throw new LabUnavailableException("the guest could not mount " + share.host() + ": "
						+ mounted.output().trim());
			}
		}
		long started = System.nanoTime();
		GuestCommandResult version = guest.exec(quote(jdk.java()) + " -version", Duration.ofMinutes(2));
		Duration versionTime = Duration.ofNanos(System.nanoTime() - started);
		if (!version.succeeded()) {
			throw new LabUnavailableException(jdk.home() + " does not run in the guest (exit status "
					+ version.exitStatus() + "): " + version.output().trim());
		}
		return new GuestJava(guest, jdk, staging, List.copyOf(defaults), version.output().trim(), versionTime,
				preparation);
	}

	private static Path stagingDirectory(Path workDirectory) {
		return workDirectory.resolve("guest-java");
	}

	/**
	 * Runs a main class of the test classpath in a fresh guest JVM.
	 * @param mainClass the class
	 * @param jvmArgs options for the JVM ({@code -D...}, {@code --add-exports ...}), after
	 * {@link #defaultJvmArgs()} and before the classpath
	 * @param args the program's arguments
	 * @param timeout how long it may run
	 * @return its exit status and output (standard output, then standard error)
	 * @throws LabException if the guest cannot be reached, or the JVM is still there after the
	 * timeout and the grace period
	 */
	public GuestCommandResult runJava(String mainClass, List<String> jvmArgs, List<String> args, Duration timeout) {
		return start(mainClass, jvmArgs, args, timeout).await(timeout.plusSeconds(KILL_GRACE_SECONDS + 30));
	}

	/**
	 * Starts a main class of the test classpath in a fresh guest JVM and returns at once: for a
	 * server the test talks to while it runs.
	 * @param mainClass the class
	 * @param jvmArgs options for the JVM, after {@link #defaultJvmArgs()}
	 * @param args the program's arguments
	 * @param lifetime how long it may run before it is stopped as {@link #runJava} stops a JVM
	 * @return the running job
	 */
	public Job start(String mainClass, List<String> jvmArgs, List<String> args, Duration lifetime) {
		String job = "java-" + RUNS.incrementAndGet();
		List<String> words = new ArrayList<>(List.of("timeout", "-s", "QUIT", "-k", String.valueOf(KILL_GRACE_SECONDS),
				String.valueOf(Math.max(1, lifetime.toSeconds())), this.jdk.java()));
		words.addAll(this.defaultJvmArgs);
		words.addAll(jvmArgs);
		// Names the JVM on its command line, so that Job#stop finds exactly this one.
		words.add("-Drpcrdma.lab.job=" + job);
		words.add("@" + this.staging.classpathArgs());
		words.add(mainClass);
		words.addAll(args);
		// Linux's siw counts registered memory against RLIMIT_MEMLOCK even for root (8 MiB by
		// default), so a 64 MiB chunk needs the limit lifted (docs/hardware.md).
		String command = "ulimit -l unlimited && mkdir -p /tmp/" + job + ".d && cd /tmp/" + job + ".d && "
				+ String.join(" ", words.stream().map(GuestJava::quote).toList());
		this.guest.startJob(job, command);
		return new Job(this.guest, job, command);
	}

	/**
	 * A guest JVM started by {@link #start}: its output is in the guest's {@code /tmp/<name>.out}.
	 */
	public static final class Job {

		private final LabGuest guest;

		private final String name;

		private final String command;

		private Job(LabGuest guest, String name, String command) {
			this.guest = guest;
			this.name = name;
			this.command = command;
		}

		/**
		 * Waits until the JVM prints a line starting with the given text.
		 * @param prefix the line's start
		 * @param timeout how long to wait
		 * @throws LabException if the JVM ended or the timeout passed first, with its output
		 */
		public void awaitLine(String prefix, Duration timeout) {
			String out = "/tmp/" + this.name + ".out";
			long tenths = Math.max(1, timeout.toMillis() / 100);
			GuestCommandResult waited = this.guest.exec("i=0; while ! grep -q " + quote("^" + prefix) + " " + out
					+ " 2>/dev/null && [ ! -s /tmp/" + this.name + ".rc ] && [ $i -lt " + tenths
					+ " ]; do sleep 0.1; i=$((i+1)); done; grep -q " + quote("^" + prefix) + " " + out,
					timeout.plusSeconds(10));
			if (waited.exitStatus() != 0) {
				String output = this.guest.exec("cat " + out + " /tmp/" + this.name + ".err", Duration.ofSeconds(10))
					.output();
				throw new LabException("guest JVM " + this.name + " printed no '" + prefix + "' within "
						+ timeout.toSeconds() + " s; its output:\n" + output);
			}
		}

		/**
		 * What the JVM has printed so far, while it runs on: for a test that reports a
		 * server's side of a failure before stopping it.
		 * @return its standard output, then its standard error
		 */
		public String outputSoFar() {
			return this.guest.exec("cat /tmp/" + this.name + ".out /tmp/" + this.name + ".err", Duration.ofSeconds(10))
				.output();
		}

		/**
		 * Waits for the JVM to end by itself.
		 * @param timeout how long to wait
		 * @return its exit status and output
		 */
		public GuestCommandResult await(Duration timeout) {
			GuestCommandResult result;
			try {
				result = this.guest.awaitExit(this.name, timeout);
			}
			catch (LabException ex) {
				// Never leave a JVM behind to compete with the next test's.
				kill();
				throw ex;
			}
			return new GuestCommandResult(this.command, result.exitStatus(), result.output());
		}

		/**
		 * Asks the JVM to stop (SIGTERM, which runs its shutdown hooks) and waits for it.
		 * @param timeout how long it may take to stop
		 * @return its exit status and output
		 */
		public GuestCommandResult stop(Duration timeout) {
			signal("TERM");
			return await(timeout);
		}

		/**
		 * Signals the JVM itself, not the timeout or the shell around it (the guest's busybox
		 * has no pkill; its ps shows each command line, the program first).
		 */
		private void signal(String name) {
			this.guest.exec("for p in $(ps | grep " + quote("rpcrdma.lab.job=" + this.name + " ")
					+ " | awk '$3 ~ /bin\\/java$/ {print $1}'); do kill -" + name + " $p; done", Duration.ofSeconds(10));
		}

		/**
		 * Kills the JVM at once (SIGKILL): no shutdown hook runs, the kernel tears down its
		 * connections, as when a machine's process dies.
		 */
		public void kill() {
			signal("KILL");
		}

	}

	/**
	 * Runs JUnit test classes of the test classpath in a fresh guest JVM
	 * ({@link GuestTestRunner}). System properties in {@code jvmArgs} reach the tests, and
	 * JUnit reads them as configuration parameters.
	 * @param testClasses the classes' names ({@code Class#method} for one method)
	 * @param jvmArgs options for the JVM
	 * @param timeout how long the run may take
	 * @return the runner's summary
	 * @throws LabException if the runner printed no summary (it did not start, or was killed)
	 */
	public GuestTestSummary runTests(List<String> testClasses, List<String> jvmArgs, Duration timeout) {
		return GuestTestSummary.parse(runJava(GuestTestRunner.class.getName(), jvmArgs, testClasses, timeout));
	}

	/**
	 * Shares a host file or directory with the guest: hard-linked (or copied) into the staging
	 * directory now, so that later changes on the host are not seen.
	 * @param hostPath the file or directory
	 * @return where the guest (and the host) sees it; a file gets a directory of its own and
	 * keeps its name, so that its parent can be a {@code java.library.path}
	 */
	public Path share(Path hostPath) {
		return this.staging.stageExtra(hostPath);
	}

	/**
	 * The host directory the guest sees at the same path (uncached: a file put there is seen
	 * in the guest at once). {@link #share} is the simpler way to put something there.
	 * @return the staging directory
	 */
	public Path stagingDirectory() {
		return this.staging.directory();
	}

	/**
	 * The options every guest JVM gets first: {@code -XX:TieredStopAtLevel=1} under TCG, and
	 * the class archive when the host could make it ({@link GuestClassArchive}).
	 * @return the options
	 */
	public List<String> defaultJvmArgs() {
		return this.defaultJvmArgs;
	}

	/**
	 * The JDK the guest runs.
	 * @return its directory, the same on the host and in the guest
	 */
	public Path javaHome() {
		return this.jdk.home();
	}

	/**
	 * What {@code java -version} printed in the guest.
	 * @return the version text
	 */
	public String version() {
		return this.version;
	}

	/**
	 * How long the first {@code java -version} took in the guest, seen from the host (the
	 * JDK's files were not yet in the guest's cache).
	 * @return the time
	 */
	public Duration versionTime() {
		return this.versionTime;
	}

	/**
	 * What preparing the classpath did and took on the host, for the log.
	 * @return a sentence
	 */
	String preparation() {
		return this.preparation;
	}

	static String quote(String word) {
		return "'" + word.replace("'", "'\\''") + "'";
	}

	@Override
	public String toString() {
		return "GuestJava[" + this.jdk.home() + ", " + this.guest + "]";
	}

}
