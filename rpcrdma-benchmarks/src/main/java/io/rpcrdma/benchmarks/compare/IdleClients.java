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

/**
 * The client side of {@link Growth}'s idle connections, in a JVM of its own so that thousands of
 * connections' client threads and memory count neither in the measuring JVM nor in the server:
 * opens one contender's idle connections ({@link IdleConnector}: plain sockets, a gRPC channel
 * each, or rpcrdma connections with the library's defaults over software iWARP) to one port on
 * the loopback address as told on standard input, and lives until standard input closes.
 * <ul>
 * <li>{@code OPEN <n>}: opens connections until it holds n; answers {@code OPEN <n>}, or
 * {@code FAILED <held> <reason>} at the first one that cannot be opened;</li>
 * <li>{@code STATS}: answers {@code STATS <registered bytes> <threads>} (registered -1 for a
 * contender that registers no memory).</li>
 * </ul>
 * <pre>
 * java -cp rpcrdma-benchmarks.jar io.rpcrdma.benchmarks.compare.IdleClients &lt;contender&gt; &lt;port&gt;
 * </pre>
 */
public final class IdleClients {

	/** Held, so that the level set on it is not lost with a collected logger. */
	private static final Logger LIBRARY_LOG = Logger.getLogger("io.rpcrdma");

	private IdleClients() {
	}

	/**
	 * @param args the contender ({@link IdleConnector#CONTENDERS}) and its server's port on the
	 * loopback address
	 * @throws Exception if the contender's client side cannot be opened
	 */
	public static void main(String[] args) throws Exception {
		if (args.length != 2) {
			throw new IllegalArgumentException("usage: IdleClients <contender> <port>, the contender one of "
					+ IdleConnector.CONTENDERS + "; got " + List.of(args));
		}
		LIBRARY_LOG.setLevel(Level.WARNING);
		InetSocketAddress server = new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[1]));
		List<AutoCloseable> open = new ArrayList<>();
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		try (IdleConnector connector = IdleConnector.of(args[0], server)) {
			System.out.println("READY");
			try {
				for (String line = in.readLine(); line != null; line = in.readLine()) {
					String[] command = line.trim().split(" ");
					if (command[0].equals("OPEN")) {
						System.out.println(open(connector, open, Integer.parseInt(command[1])));
					}
					else if (command[0].equals("STATS")) {
						System.out.println("STATS " + connector.registeredBytes() + " "
								+ ManagementFactory.getThreadMXBean().getThreadCount());
					}
					else {
						System.out.println("UNKNOWN " + line);
					}
				}
			}
			finally {
				for (AutoCloseable connection : open) {
					connection.close();
				}
			}
		}
	}

	private static String open(IdleConnector connector, List<AutoCloseable> open, int wanted) {
		while (open.size() < wanted) {
			try {
				open.add(connector.open());
			}
			catch (Exception failed) {
				if (failed instanceof InterruptedException) {
					Thread.currentThread().interrupt();
				}
				return "FAILED " + open.size() + " " + String.valueOf(failed).replace('\n', ' ');
			}
		}
		return "OPEN " + open.size();
	}

}
