package io.rpcrdma.interop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A running lab guest: Debian's kernel in QEMU with Linux's siw ({@code siw0} on the NIC),
 * Soft-RoCE ({@code rxe0}) and nfsd listening for RPC-over-RDMA, reached only through 127.0.0.1
 * forwards (see {@link LabPorts}). Commands run in the guest through its agent
 * ({@code interop/lab/guest/agent.sh}). Closing it stops QEMU.
 */
public final class LabGuest implements AutoCloseable {

	/** The guest port of the command agent. */
	public static final int AGENT_PORT = 7000;

	/** The guest port peer programs (rping, perftest) listen on. */
	public static final int PEER_PORT = 7471;

	/** The guest's own address on its NIC (and so on {@code siw0}). */
	public static final String GUEST_ADDRESS = "10.0.2.15";

	private static final String READY = "lab: ready";

	private static final String EXIT_MARKER = "__LAB_RC__ ";

	private final Process qemu;

	private final LabPorts ports;

	private final Accelerator accelerator;

	private final Duration bootTime;

	private final Path console;

	private final List<GuestShare> shares;

	// The console line that reported the guest's NIC stalled, once one has.
	private final AtomicReference<String> networkStall;

	private LabGuest(Process qemu, LabPorts ports, Accelerator accelerator, Duration bootTime, Path console,
			List<GuestShare> shares, AtomicReference<String> networkStall) {
		this.networkStall = networkStall;
		this.qemu = qemu;
		this.ports = ports;
		this.accelerator = accelerator;
		this.bootTime = bootTime;
		this.console = console;
		this.shares = shares;
	}

	/**
	 * Boots a guest: KVM when it works here, TCG otherwise (or as {@code rpcrdma.lab.accel}
	 * says: {@code kvm}, {@code tcg} or {@code auto}).
	 * @param image the kernel and initramfs
	 * @param workDirectory where the console log goes
	 * @param shares the host directories the guest may mount (read-only)
	 * @return the guest, ready for commands
	 * @throws LabUnavailableException if QEMU is missing or the guest does not come up
	 */
	static LabGuest boot(LabImage image, Path workDirectory, List<GuestShare> shares) {
		String qemu = LabTools.require("qemu-system-x86_64", "rpcrdma.lab.qemu", "qemu-system-x86");
		LabTools.requireOnPath("socat", "socat");
		List<Accelerator> candidates = Accelerator.candidates(System.getProperty("rpcrdma.lab.accel", "auto"));
		List<String> failures = new ArrayList<>();
		for (Accelerator accelerator : candidates) {
			LabPorts ports = LabPorts.pickFree();
			Path console = workDirectory.resolve("console-" + accelerator.option() + ".log");
			try {
				LabGuest guest = start(qemu, image, ports, accelerator, console, List.copyOf(shares));
				guest.awaitAgent();
				return guest;
			}
			catch (LabException ex) {
				failures.add(accelerator + ": " + ex.getMessage());
			}
		}
		throw new LabUnavailableException("the guest did not boot (" + String.join("; ", failures) + ")");
	}

	private static LabGuest start(String qemu, LabImage image, LabPorts ports, Accelerator accelerator,
			Path console, List<GuestShare> shares) {
		List<String> command = QemuCommand.of(qemu, image, ports, accelerator, shares);
		Process process;
		try {
			Files.createDirectories(console.getParent());
			process = new ProcessBuilder(command).redirectErrorStream(true).start();
		}
		catch (IOException ex) {
			throw new LabUnavailableException("could not start QEMU: " + ex.getMessage(), ex);
		}
		Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "lab-guest-reaper"));
		long started = System.nanoTime();
		CountDownLatch firstOutput = new CountDownLatch(1);
		CountDownLatch ready = new CountDownLatch(1);
		AtomicReference<String> networkStall = new AtomicReference<>();
		Thread reader = new Thread(() -> copyConsole(process, console, firstOutput, ready, networkStall),
				"lab-console");
		reader.setDaemon(true);
		reader.start();
		try {
			if (!firstOutput.await(accelerator.firstOutput().toMillis(), TimeUnit.MILLISECONDS)) {
				process.destroyForcibly();
				throw new LabException("no console output within " + accelerator.firstOutput().toSeconds() + " s");
			}
			if (!ready.await(accelerator.ready().toMillis(), TimeUnit.MILLISECONDS) || !process.isAlive()) {
				process.destroyForcibly();
				throw new LabException("no '" + READY + "' within " + accelerator.ready().toSeconds()
						+ " s; see " + console);
			}
		}
		catch (InterruptedException ex) {
			process.destroyForcibly();
			Thread.currentThread().interrupt();
			throw new LabException("interrupted while booting", ex);
		}
		Duration bootTime = Duration.ofNanos(System.nanoTime() - started);
		return new LabGuest(process, ports, accelerator, bootTime, console, shares, networkStall);
	}

	private static void copyConsole(Process process, Path console, CountDownLatch firstOutput, CountDownLatch ready,
			AtomicReference<String> networkStall) {
		try (BufferedReader in = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
				Writer out = Files.newBufferedWriter(console, StandardCharsets.UTF_8)) {
			for (String line = in.readLine(); line != null; line = in.readLine()) {
				if (line.startsWith("[") || line.startsWith("lab:")) {
					// The guest kernel's first message, not a warning of QEMU's.
					firstOutput.countDown();
				}
				out.write(line);
				out.write('\n');
				out.flush();
				if (line.contains(READY)) {
					ready.countDown();
				}
				if (GuestNetworkStalledException.reportedBy(line)) {
					networkStall.compareAndSet(null, line);
				}
			}
		}
		catch (IOException ex) {
			// QEMU went away; the waits above time out or see the process gone.
		}
	}

	private void awaitAgent() {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (true) {
			try {
				exec("true", Duration.ofSeconds(10)).orThrow();
				return;
			}
			catch (LabException ex) {
				if (System.nanoTime() > deadline || !this.qemu.isAlive()) {
					close();
					throw new LabException("the guest agent does not answer: " + ex.getMessage(), ex);
				}
				// The agent starts just after "lab: ready"; ask again shortly, until the deadline.
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
			}
		}
	}

	/**
	 * Runs a shell command line in the guest and waits for it.
	 * @param command the command line ({@code sh -c})
	 * @param timeout how long it may take
	 * @return its exit status and output
	 * @throws LabException if the agent cannot be reached or the command outlives the timeout
	 * @throws GuestNetworkStalledException if so, and the guest's NIC has stalled
	 */
	public GuestCommandResult exec(String command, Duration timeout) {
		if (command.indexOf('\n') >= 0) {
			throw new IllegalArgumentException("The agent takes one line; join commands with ';' or '&&'");
		}
		try (Socket socket = new Socket()) {
			socket.connect(LabPorts.loopback(this.ports.agent()), 5_000);
			socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
			OutputStream out = socket.getOutputStream();
			out.write((command + "\n").getBytes(StandardCharsets.UTF_8));
			out.flush();
			String text = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			int marker = text.lastIndexOf(EXIT_MARKER);
			if (marker < 0) {
				throw new LabException("the agent closed the connection without an exit status for '" + command
						+ "' (output: '" + text + "')");
			}
			int status = Integer.parseInt(text.substring(marker + EXIT_MARKER.length()).trim());
			return new GuestCommandResult(command, status, text.substring(0, marker));
		}
		catch (SocketTimeoutException ex) {
			throw unanswered("'" + command + "' did not finish within " + timeout.toSeconds() + " s", ex);
		}
		catch (IOException ex) {
			throw unanswered("could not reach the guest agent on 127.0.0.1:" + this.ports.agent() + ": "
					+ ex.getMessage(), ex);
		}
	}

	/** The agent did not answer: because the guest's NIC stalled, if its console said so. */
	private LabException unanswered(String message, IOException cause) {
		String stall = this.networkStall.get();
		return (stall != null) ? new GuestNetworkStalledException(message, stall, cause)
				: new LabException(message, cause);
	}

	/**
	 * The guest console's report of its NIC's transmit queue timing out, if there was one:
	 * the guest then no longer reaches the host (see {@link GuestNetworkStalledException}).
	 * @return the console line, or empty
	 */
	public Optional<String> networkStall() {
		return Optional.ofNullable(this.networkStall.get());
	}

	/** Forgets a reported stall: for a test that printed the report itself, the NIC working on. */
	void forgetNetworkStall() {
		this.networkStall.set(null);
	}

	/**
	 * Runs a command that must succeed.
	 * @param command the command line
	 * @return its output
	 */
	public String run(String command) {
		return exec(command, Duration.ofSeconds(60)).orThrow().output();
	}

	/**
	 * Starts a command in the background, detached from the agent's connection; its standard
	 * output and standard error go to separate files in the guest (so that a program's
	 * buffered output is not cut into by its unbuffered errors), and {@link #awaitExit}
	 * waits for it.
	 * @param name a name for the job (its files are {@code /tmp/<name>.out}, {@code .err} and
	 * {@code .rc})
	 * @param command the command line
	 */
	public void startJob(String name, String command) {
		String job = "/tmp/" + name;
		// The subshell gives the whole command line, lists and 'exit' included, to the files and the status.
		run("rm -f " + job + ".rc; setsid sh -c '( " + command.replace("'", "'\\''") + " ) > " + job + ".out 2> " + job
				+ ".err; echo $? > " + job + ".rc' > /dev/null 2>&1 &");
	}

	/**
	 * Waits for a background job to end.
	 * @param name the job's name
	 * @param timeout how long to wait
	 * @return its exit status and output (standard output, then standard error)
	 */
	public GuestCommandResult awaitExit(String name, Duration timeout) {
		String job = "/tmp/" + name;
		long deadline = System.nanoTime() + timeout.toNanos();
		String status = "";
		do {
			// In rounds of at most half a minute, so that a long job does not hang on one connection.
			long tenths = Math.max(1, Math.min(300, (deadline - System.nanoTime()) / 100_000_000));
			GuestCommandResult waited;
			try {
				waited = exec("i=0; while [ ! -s " + job + ".rc ] && [ $i -lt " + tenths
						+ " ]; do sleep 0.1; i=$((i+1)); done; cat " + job + ".rc 2>/dev/null",
						Duration.ofSeconds(tenths / 10 + 60));
			}
			catch (GuestNetworkStalledException ex) {
				throw ex;
			}
			catch (LabException ex) {
				// A busy guest (TCG, a JVM on each vCPU) sleeps longer than asked: wait again.
				continue;
			}
			status = waited.output().trim();
		}
		while (status.isEmpty() && System.nanoTime() < deadline);
		String output = exec("cat " + job + ".out " + job + ".err", Duration.ofSeconds(10)).output();
		if (status.isEmpty()) {
			throw new LabException("guest job " + name + " still runs after " + timeout.toSeconds()
					+ " s; its output:\n" + output);
		}
		return new GuestCommandResult(name, Integer.parseInt(status), output);
	}

	/**
	 * The forwarded ports.
	 * @return the ports
	 */
	public LabPorts ports() {
		return this.ports;
	}

	/**
	 * The host directories QEMU offers the guest (mounted on demand, see {@link GuestJava}).
	 * @return the shares
	 */
	List<GuestShare> shares() {
		return this.shares;
	}

	/**
	 * The accelerator the guest runs under.
	 * @return KVM or TCG
	 */
	public Accelerator accelerator() {
		return this.accelerator;
	}

	/**
	 * How long the guest took from QEMU's start to {@code lab: ready}.
	 * @return the boot time
	 */
	public Duration bootTime() {
		return this.bootTime;
	}

	/**
	 * The file the guest's serial console is copied to.
	 * @return the console log
	 */
	public Path consoleLog() {
		return this.console;
	}

	/**
	 * QEMU's process on the host, whose sockets are the user networking's end of every
	 * forwarded connection: for a test that reports what it holds.
	 * @return its process id
	 */
	long qemuPid() {
		return this.qemu.pid();
	}

	@Override
	public void close() {
		this.qemu.destroy();
		try {
			if (!this.qemu.waitFor(10, TimeUnit.SECONDS)) {
				this.qemu.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.qemu.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public String toString() {
		return "LabGuest[" + this.accelerator + ", booted in " + this.bootTime.toMillis() + " ms, agent 127.0.0.1:"
				+ this.ports.agent() + "]";
	}

}
