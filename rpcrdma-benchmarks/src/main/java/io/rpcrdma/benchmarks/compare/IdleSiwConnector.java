package io.rpcrdma.benchmarks.compare;

import java.net.InetSocketAddress;

import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;

/**
 * Idle connections of rpcrdma over software iWARP: a connection (an {@link RpcClientPool} of
 * one) per connection, with the library's defaults, from one provider and memory pool.
 */
final class IdleSiwConnector implements IdleConnector {

	private final InetSocketAddress server;

	private final RdmaProvider provider;

	private final RegisteredMemoryPool memory;

	IdleSiwConnector(InetSocketAddress server) {
		this.server = server;
		this.provider = RdmaProviders.open("siw");
		try {
			this.memory = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(),
					MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
		}
		catch (RuntimeException failed) {
			this.provider.close();
			throw failed;
		}
	}

	@Override
	public AutoCloseable open() {
		return RpcClientPool.connect(this.provider, this.memory, this.server, TransportConfig.defaults(), 16,
				RpcClientPool.Config.of(1, 1));
	}

	@Override
	public long registeredBytes() {
		return this.memory.stats().registeredBytes();
	}

	@Override
	public void close() {
		this.memory.close();
		this.provider.close();
	}

}
