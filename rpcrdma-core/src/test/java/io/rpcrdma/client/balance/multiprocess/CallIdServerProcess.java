package io.rpcrdma.client.balance.multiprocess;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.server.Idempotence;
import io.rpcrdma.server.ProcedureHandler;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * A server in a process of its own, for tests and benchmarks that need servers in separate
 * JVMs: an {@link RpcServer} over the siw provider on 127.0.0.1 exporting {@link #PROGRAM}
 * version 1, whose procedures record each call id they execute, as a line {@code I <id>}
 * (idempotent, procedure {@link #RECORD}) or {@code N <id>} (not idempotent, procedure
 * {@link #RECORD_ONCE}) appended to the file named by the first argument before the reply is
 * sent. Each line is written with one {@code write(2)}, so it survives the process being
 * killed (the kernel holds it), and a reader can tell exactly what ran.
 * <p>
 * Prints {@code PORT <port>} once it listens. SIGTERM runs a shutdown hook that shuts the
 * server down gracefully within the grace period given as the second argument (milliseconds)
 * and prints {@code STOPPED <calls still running>}. When its standard input ends (the parent
 * is gone) it exits, so no server outlives its test.
 */
public final class CallIdServerProcess {

	/** In the transient range (RFC 5531 §7.3). */
	public static final int PROGRAM = 0x4000_0B18;

	/** Records the call id; idempotent. Returns the id. */
	public static final int RECORD = 1;

	/** Records the call id; not idempotent. Returns the id. */
	public static final int RECORD_ONCE = 2;

	private final FileChannel log;

	private CallIdServerProcess(FileChannel log) {
		this.log = log;
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 2) {
			throw new IllegalArgumentException("usage: CallIdServerProcess <call-id file> <grace millis>");
		}
		Duration grace = Duration.ofMillis(Long.parseLong(args[1]));
		FileChannel log = FileChannel.open(Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.APPEND);
		CallIdServerProcess recorder = new CallIdServerProcess(log);
		RdmaProvider provider = RdmaProviders.open("siw");
		RegisteredMemoryPool memory = new RegisteredMemoryPool(provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
		RpcServer server = RpcServer.start(
				RpcServer.Config.defaults(provider, memory, new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))
					.withExecutor(new RpcServer.ExecutorSpec(RpcServer.ExecutorKind.BOUNDED_POOL, 4, 256)),
				new ProgramRegistry()
					.register(PROGRAM, 1, RECORD, Idempotence.IDEMPOTENT,
							ProcedureHandler.of((call, arguments, results) -> recorder.record('I', arguments, results)))
					.register(PROGRAM, 1, RECORD_ONCE,
							ProcedureHandler.of((call, arguments, results) -> recorder.record('N', arguments, results))));
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			try {
				var report = server.shutdown(grace).get(grace.toMillis() + 10_000, TimeUnit.MILLISECONDS);
				System.out.println("STOPPED " + report);
			}
			catch (Exception ex) {
				System.out.println("STOP FAILED " + ex);
			}
			System.out.flush();
		}, "graceful-shutdown"));
		System.out.println("PORT " + server.localAddress().getPort());
		System.out.flush();
		// Block until the parent closes our input (or dies); then leave, running the hook.
		try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
			while (in.readLine() != null) {
				// No commands: signals and the end of input are the protocol.
			}
		}
		System.exit(0);
	}

	private void record(char kind, XdrDecoder arguments, XdrEncoder results) throws IOException {
		int id = arguments.readInt();
		ByteBuffer line = ByteBuffer.wrap((kind + " " + id + "\n").getBytes(StandardCharsets.US_ASCII));
		synchronized (this.log) {
			while (line.hasRemaining()) {
				this.log.write(line);
			}
		}
		results.writeInt(id);
	}

}
