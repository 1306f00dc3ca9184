package io.rpcrdma.spring.boot.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallShape;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClientPool;

/**
 * The caller behind a named client's proxies: spreads calls round robin over one
 * {@link RpcClientPool} per server address. The pools open on the first call, so a client
 * of this application's own server finds it listening, and an injected proxy costs nothing
 * until it is used.
 */
final class RoundRobinCaller implements RpcCaller {

	private final String name;

	private final Function<String, List<RpcClientPool>> opener;

	private final RpcCallerSecurity security;

	private final AtomicInteger next = new AtomicInteger();

	private volatile List<RpcClientPool> pools;

	/** One per pool, in the same order: the pool itself, or what protects its calls. */
	private volatile List<RpcCaller> callers;

	RoundRobinCaller(String name, Function<String, List<RpcClientPool>> opener, RpcCallerSecurity security) {
		this.name = name;
		this.opener = opener;
		this.security = security;
	}

	@Override
	public CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments,
			CallShape shape, boolean idempotent, Duration timeout) {
		List<RpcCaller> open;
		try {
			open = callers();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		RpcCaller caller = open.get(Math.floorMod(this.next.getAndIncrement(), open.size()));
		return caller.call(program, version, procedure, arguments, shape, idempotent, timeout);
	}

	private List<RpcCaller> callers() {
		List<RpcCaller> open = this.callers;
		if (open == null) {
			synchronized (this) {
				open = this.callers;
				if (open == null) {
					List<RpcClientPool> opened = List.copyOf(this.opener.apply(this.name));
					List<RpcCaller> protectedCallers = new ArrayList<>(opened.size());
					for (RpcClientPool pool : opened) {
						protectedCallers.add(this.security.protect(pool));
					}
					this.pools = opened;
					open = List.copyOf(protectedCallers);
					this.callers = open;
				}
			}
		}
		return open;
	}

	/**
	 * Closes what protects the pools' calls (an RPCSEC_GSS client destroys its context), not
	 * the pools, which their opener closes after.
	 */
	void closeProtection() {
		List<RpcCaller> open = this.callers;
		if (open == null) {
			return;
		}
		for (RpcCaller caller : open) {
			if (!(caller instanceof RpcClientPool) && caller instanceof AutoCloseable closeable) {
				try {
					closeable.close();
				}
				catch (Exception ex) {
					// The pool closes next; the server forgets what was not destroyed.
				}
			}
		}
	}

	/** @return the pools opened so far, empty before the first call */
	List<RpcClientPool> openPools() {
		List<RpcClientPool> open = this.pools;
		return (open != null) ? open : List.of();
	}

	@Override
	public String endpoint() {
		List<RpcClientPool> open = this.pools;
		if (open == null) {
			return "rpcrdma client '" + this.name + "'";
		}
		return "rpcrdma client '" + this.name + "' ("
				+ String.join(", ", open.stream().map(RpcClientPool::endpoint).toList()) + ")";
	}

}
