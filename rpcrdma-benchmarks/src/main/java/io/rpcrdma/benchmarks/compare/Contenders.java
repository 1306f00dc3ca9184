package io.rpcrdma.benchmarks.compare;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.siw.SiwSettings;

/**
 * The contenders of one run, by name, opened in one place and closed in reverse order.
 */
final class Contenders implements AutoCloseable {

	static final String SOCKET = "socket";

	static final String GRPC = "grpc-java";

	/** rpcrdma over software iWARP, client and server in this JVM. */
	static final String SIW = "rpcrdma-siw";

	/** rpcrdma over software iWARP, the server in a child JVM. */
	static final String SIW_PROCESS = "rpcrdma-siw-process";

	/**
	 * rpcrdma over the in-JVM loopback provider, not run by default: a second provider in the
	 * JVM that measures {@link #SIW} makes the transport's calls into the provider polymorphic
	 * for the JIT, in a JVM unlike the users' (one provider each). Measure it in a run of its
	 * own (docs/benchmarks.md, "Fairness").
	 */
	static final String LOOPBACK = "rpcrdma-loopback";

	/**
	 * rpcrdma over software iWARP with every reply read by the connection's receive thread
	 * ({@code siw.caller-receives=false}): the A/B counterpart of {@link #SIW}, not run by
	 * default.
	 */
	static final String SIW_RECEIVE_THREAD = "rpcrdma-siw-receive-thread";

	/**
	 * rpcrdma over software iWARP with callers that go straight to {@code epoll} for their
	 * replies ({@code siw.caller-spin-micros=0}): the A/B counterpart of {@link #SIW}, not run
	 * by default.
	 */
	static final String SIW_NO_POLL = "rpcrdma-siw-no-poll";

	/** Every contender a run has by default, in the order tables list them. */
	static final List<String> ALL = List.of(SOCKET, GRPC, SIW, SIW_PROCESS);

	/** Contenders a run has only when named. */
	static final List<String> NAMED_ONLY = List.of(LOOPBACK, SIW_RECEIVE_THREAD, SIW_NO_POLL);

	private final List<Contender> open = new ArrayList<>();

	/**
	 * Starts the named contenders' servers and clients.
	 * @param names from {@link #ALL}
	 * @throws Exception if one cannot start; those already started are closed
	 */
	Contenders(List<String> names) throws Exception {
		try {
			for (String name : names) {
				this.open.add(open(name));
			}
		}
		catch (Exception failed) {
			close();
			throw failed;
		}
	}

	/** @return the open contenders, in the order asked for */
	List<Contender> list() {
		return List.copyOf(this.open);
	}

	private static Contender open(String name) throws Exception {
		InetSocketAddress local = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
		return switch (name) {
			case SOCKET -> new SocketContender();
			case GRPC -> new GrpcContender();
			case SIW -> new RpcRdmaContender(SIW, "siw", local, false);
			case SIW_PROCESS -> new RpcRdmaContender(SIW_PROCESS, "siw", local, true);
			case SIW_RECEIVE_THREAD -> new RpcRdmaContender(SIW_RECEIVE_THREAD, "siw", local,
					RdmaProviderConfig.defaults().with(SiwSettings.CALLER_RECEIVES, "false"));
			case SIW_NO_POLL -> new RpcRdmaContender(SIW_NO_POLL, "siw", local,
					RdmaProviderConfig.defaults().with(SiwSettings.CALLER_SPIN_MICROS, "0"));
			case LOOPBACK -> new RpcRdmaContender(LOOPBACK, "loopback",
					InetSocketAddress.createUnresolved("compare-bench", 0), false);
			default -> throw new IllegalArgumentException("No contender named " + name + "; choose from " + ALL);
		};
	}

	@Override
	public void close() throws Exception {
		Exception first = null;
		for (int i = this.open.size() - 1; i >= 0; i--) {
			try {
				this.open.get(i).close();
			}
			catch (Exception failed) {
				if (first == null) {
					first = failed;
				}
				else {
					first.addSuppressed(failed);
				}
			}
		}
		this.open.clear();
		if (first != null) {
			throw first;
		}
	}

}
