package io.rpcrdma.benchmarks.compare;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * The client side of {@link Growth}'s idle connections, in a JVM of its own so that thousands of
 * connections' client threads and memory count neither in the measuring JVM nor in the server:
 * opens idle rpcrdma connections (library defaults, software iWARP) to one port on the loopback
 * address as told on standard input, and lives until standard input closes.
 * <ul>
 * <li>{@code OPEN <n>}: opens connections until it holds n; answers {@code OPEN <n>}, or
 * {@code FAILED <held> <reason>} at the first one that cannot be opened;</li>
 * <li>{@code STATS}: answers {@code STATS <registered bytes> <threads>}.</li>
 * </ul>
 * <pre>
 * java -cp rpcrdma-benchmarks.jar io.rpcrdma.benchmarks.compare.IdleClients &lt;port&gt;
 * </pre>
 */
public final class IdleClients {

	/** Held, so that the level set on it is not lost with a collected logger. */
	private static final Logger LIBRARY_LOG = Logger.getLogger("io.rpcrdma");

	private IdleClients() {
	}

	/**
	 * @param args the server's port on the loopback address
	 * @throws Exception if the provider or the memory pool cannot be opened
	 */
	public static void main(String[] args) throws Exception {
		LIBRARY_LOG.setLevel(Level.WARNING);
		InetSocketAddress server = new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0]));
		List<RpcClientPool> open = new ArrayList<>();
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		try (RdmaProvider provider = RdmaProviders.open("siw");
				RegisteredMemoryPool memory = new RegisteredMemoryPool(provider.allocateProtectionDomain(),
						MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2))) {
			System.out.println("READY");
			try {
				for (String line = in.readLine(); line != null; line = in.readLine()) {
					String[] command = line.trim().split(" ");
					if (command[0].equals("OPEN")) {
						System.out.println(open(provider, memory, server, open, Integer.parseInt(command[1])));
					}
					else if (command[0].equals("STATS")) {
						System.out.println("STATS " + memory.stats().registeredBytes() + " "
								+ ManagementFactory.getThreadMXBean().getThreadCount());
					}
					else {
						System.out.println("UNKNOWN " + line);
					}
				}
			}
			finally {
				for (RpcClientPool pool : open) {
					pool.close();
				}
			}
		}
	}

	private static String open(RdmaProvider provider, RegisteredMemoryPool memory, InetSocketAddress server,
			List<RpcClientPool> open, int wanted) {
		while (open.size() < wanted) {
			try {
				open.add(RpcClientPool.connect(provider, memory, server, TransportConfig.defaults(), 16,
						RpcClientPool.Config.of(1, 1)));
			}
			catch (RuntimeException failed) {
				return "FAILED " + open.size() + " " + String.valueOf(failed).replace('\n', ' ');
			}
		}
		return "OPEN " + open.size();
	}

}
