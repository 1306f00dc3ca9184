package io.rpcrdma.demo;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;

import io.rpcrdma.demo.cli.ErrorMessages;
import io.rpcrdma.demo.cli.StoreCommands;
import io.rpcrdma.demo.cli.WatchEvents;
import io.rpcrdma.demo.cli.StoreProbe;
import io.rpcrdma.demo.report.ConveyanceTally;
import io.rpcrdma.demo.report.ProgressBar;
import io.rpcrdma.demo.report.ResultsTable;
import io.rpcrdma.demo.report.TransportCounterReader;
import io.rpcrdma.demo.store.ObjectStore;
import io.rpcrdma.demo.workload.WorkloadPlan;
import io.rpcrdma.demo.workload.WorkloadResult;
import io.rpcrdma.demo.workload.WorkloadRunner;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.verbs.RdmaProvider;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * What the demo does once the application has started, by {@link DemoProperties.Mode mode}:
 * serve, run the workload, or run one command, printing to the console.
 */
@Component
public class DemoRunner {

	private final DemoProperties properties;

	private final ObjectStore store;

	private final StoreProbe probe;

	private final TransportCounterReader counters;

	private final ObjectProvider<RpcRdmaServerLifecycle> server;

	private final RdmaProvider provider;

	private final Environment environment;

	private final ManagementLinks links;

	private final ObjectProvider<WatchEvents> watched;

	/** Where everything goes; the console unless a test says otherwise. */
	private PrintStream out = System.out;

	private PrintStream err = System.err;

	private boolean terminal = ProgressBar.stdoutIsTerminal();

	DemoRunner(DemoProperties properties, ObjectStore store, StoreProbe probe, TransportCounterReader counters,
			ObjectProvider<RpcRdmaServerLifecycle> server, RdmaProvider provider, Environment environment,
			ManagementLinks links, ObjectProvider<WatchEvents> watched) {
		this.watched = watched;
		this.properties = properties;
		this.store = store;
		this.probe = probe;
		this.counters = counters;
		this.server = server;
		this.provider = provider;
		this.environment = environment;
		this.links = links;
	}

	/**
	 * Sends the output elsewhere, as a non-terminal.
	 * @param out results
	 * @param err failures
	 */
	void printTo(PrintStream out, PrintStream err) {
		this.out = out;
		this.err = err;
		this.terminal = false;
	}

	/**
	 * @param commands the command line's non-option arguments (a store command, client mode)
	 * @return the exit status: 0 when everything worked
	 */
	public int run(List<String> commands) {
		this.out.println(DemoApplication.banner());
		return switch (this.properties.getMode()) {
			case SERVER -> serve();
			case CLIENT -> client(commands);
			case ALL_IN_ONE -> allInOne();
		};
	}

	private int serve() {
		Optional<String> address = storeAddress();
		if (address.isEmpty()) {
			this.err.println("error: The object store is not being served (rpcrdma.server.enabled=false?)");
			return ErrorMessages.FAILED;
		}
		this.out.println("Object store served over " + this.provider.name() + " at " + address.get());
		this.out.println("Call it from another process or host with: java -jar demo-app.jar "
				+ "--spring.profiles.active=client --rpcrdma.client.store.address=<this host>:" + port());
		this.links.print(this.out, "rpcrdma.server.calls");
		return 0;
	}

	private int client(List<String> commands) {
		String address = this.environment.getProperty("rpcrdma.client." + DemoConfiguration.CLIENT + ".address",
				"(not configured)");
		try {
			this.probe.check(DemoConfiguration.CLIENT);
		}
		catch (RuntimeException ex) {
			this.err.println("error: " + ErrorMessages.describe(ex, address).message());
			return ErrorMessages.UNREACHABLE;
		}
		if (!commands.isEmpty()) {
			return new StoreCommands(this.store, address, this.out, this.err, this.watched.getIfAvailable()).run(commands);
		}
		return workload(address);
	}

	private int allInOne() {
		Optional<String> address = storeAddress();
		if (address.isEmpty()) {
			this.err.println("error: The object store is not being served (rpcrdma.server.enabled=false?)");
			return ErrorMessages.FAILED;
		}
		this.out.println("Object store served over " + this.provider.name() + " at " + address.get()
				+ "; the client calls it through the same provider");
		int status = workload(address.get());
		if (status == 0) {
			this.out.println();
			this.out.println("Still serving; stop with Ctrl-C.");
			this.links.print(this.out, "rpcrdma.client.calls");
		}
		return status;
	}

	private int workload(String address) {
		DemoProperties.Workload settings = this.properties.getWorkload();
		WorkloadPlan plan;
		try {
			plan = new WorkloadPlan(settings.getDuration(), settings.getMaxCalls(), settings.getThreads(),
					Math.toIntExact(Math.min(settings.getLargestObject().toBytes(), ObjectStore.MAX_OBJECT_BYTES)),
					settings.getKeyPrefix(), settings.getSeed());
		}
		catch (IllegalArgumentException ex) {
			this.err.println("error: " + ex.getMessage());
			return ErrorMessages.REFUSED;
		}
		this.out.println("Running a mixed workload for up to " + plan.duration().toSeconds() + " s: put/get/read of objects "
				+ "from 64 B to " + Sizes.format(plan.largestObject()) + ", stat, list, delete, on " + plan.threads()
				+ " threads");
		ConveyanceTally before = this.counters.read();
		ProgressBar bar = new ProgressBar(this.out, this.terminal);
		WorkloadResult result;
		try {
			result = new WorkloadRunner(this.store).run(plan, bar);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			bar.finish();
			this.err.println("error: interrupted");
			return ErrorMessages.FAILED;
		}
		bar.finish();
		ConveyanceTally during = this.counters.read().since(before);
		this.out.print(ResultsTable.format(result, during, this.provider.name()));
		if (result.failure() != null) {
			ErrorMessages.Described described = ErrorMessages.describe(result.failure(), address);
			this.err.println("error: the workload stopped: " + described.message());
			return described.exitStatus();
		}
		return 0;
	}

	private Optional<String> storeAddress() {
		// The configured address, as a wildcard bind shows no useful host of its own.
		String configured = this.environment.getProperty("rpcrdma.server.address", "");
		return Optional.ofNullable(this.server.getIfAvailable())
			.flatMap(RpcRdmaServerLifecycle::localAddress)
			.map((address) -> (configured.isBlank() ? address.getHostString() : configured) + ":" + address.getPort());
	}

	private int port() {
		RpcRdmaServerLifecycle lifecycle = this.server.getIfAvailable();
		return (lifecycle != null) ? lifecycle.port() : -1;
	}

}
