package io.rpcrdma.spring.boot.client;

import java.time.Duration;
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

	private final AtomicInteger next = new AtomicInteger();

	private volatile List<RpcClientPool> pools;

	RoundRobinCaller(String name, Function<String, List<RpcClientPool>> opener) {
		this.name = name;
		this.opener = opener;
	}

	@Override
	public CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments,
			CallShape shape, boolean idempotent, Duration timeout) {
		List<RpcClientPool> open;
		try {
			open = pools();
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		RpcClientPool pool = open.get(Math.floorMod(this.next.getAndIncrement(), open.size()));
		return pool.call(program, version, procedure, arguments, shape, idempotent, timeout);
	}

	private List<RpcClientPool> pools() {
		List<RpcClientPool> open = this.pools;
		if (open == null) {
			synchronized (this) {
				open = this.pools;
				if (open == null) {
					open = List.copyOf(this.opener.apply(this.name));
					this.pools = open;
				}
			}
		}
		return open;
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
