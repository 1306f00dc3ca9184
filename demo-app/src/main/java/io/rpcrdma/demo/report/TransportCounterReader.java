package io.rpcrdma.demo.report;

import java.util.Optional;

import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcRdmaServerLifecycle;
import io.rpcrdma.spring.boot.client.RpcClientFactory;
import io.rpcrdma.transport.RpcRdmaClientConnection;
import io.rpcrdma.transport.TransportStats;

/**
 * Reads the transport counters of the demo's client pool and, when it runs in this process,
 * of its server: totals over every connection, closed ones included. Credit waits are
 * counted by each open connection's {@link io.rpcrdma.transport.CreditWindow}.
 */
public final class TransportCounterReader {

	private final RpcClientFactory clients;

	private final String clientName;

	private final RpcRdmaServerLifecycle server;

	/**
	 * @param clients the client factory whose pools to read
	 * @param clientName the client name whose pools to read
	 * @param server this application's server, or {@code null} if it has none
	 */
	public TransportCounterReader(RpcClientFactory clients, String clientName, RpcRdmaServerLifecycle server) {
		this.clients = clients;
		this.clientName = clientName;
		this.server = server;
	}

	/** @return the counters now */
	public ConveyanceTally read() {
		long callsInline = 0;
		long readChunks = 0;
		long creditsWaited = 0;
		RpcClientPool pool = this.clients.pools().get(this.clientName);
		if (pool != null) {
			TransportStats stats = pool.transportStats();
			callsInline = stats.inlineMessages();
			readChunks = stats.readChunksSent();
			for (RpcClient client : pool.connections()) {
				if (client.transport() instanceof RpcRdmaClientConnection connection) {
					creditsWaited += connection.credits().waitedAcquisitions();
				}
			}
		}
		Optional<RpcServer> running = Optional.ofNullable(this.server).flatMap(RpcRdmaServerLifecycle::server);
		if (running.isEmpty()) {
			return new ConveyanceTally(callsInline, readChunks, -1, -1, -1, creditsWaited);
		}
		TransportStats server = running.get().transportStats();
		long repliesInline = server.inlineMessages();
		long writeChunks = server.writeChunksFilled();
		long replyChunks = server.replyChunksFilled();
		return new ConveyanceTally(callsInline, readChunks, repliesInline, writeChunks, replyChunks, creditsWaited);
	}

}
