package io.rpcrdma.demo.cli;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.rpcrdma.client.RpcClient;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.spring.boot.client.RpcClientFactory;
import io.rpcrdma.spring.boot.client.RpcClientSpec;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * Connects once to each address of a client before the demo calls it, so that a server that
 * is down is reported at once and in one line, rather than by every call after its deadline.
 */
public final class StoreProbe {

	private final RdmaProvider provider;

	private final RegisteredMemoryPool memory;

	private final RpcClientFactory clients;

	/**
	 * @param provider the provider connections are opened with
	 * @param memory registered memory for the connection
	 * @param clients where the client's settings come from
	 */
	public StoreProbe(RdmaProvider provider, RegisteredMemoryPool memory, RpcClientFactory clients) {
		this.provider = provider;
		this.memory = memory;
		this.clients = clients;
	}

	/**
	 * @param clientName the client whose addresses to try
	 * @throws StoreUnreachableException if one cannot be connected to
	 */
	public void check(String clientName) {
		RpcClientSpec spec = this.clients.spec(clientName);
		if (spec.callsLocalServer()) {
			throw new StoreUnreachableException("No object store address is configured for the client: set "
					+ "rpcrdma.client." + clientName + ".address=host:port (the server prints it when it starts)", null);
		}
		Duration timeout = spec.transport().connectTimeout().plusSeconds(1);
		for (InetSocketAddress address : spec.addresses()) {
			String shown = address.getHostString() + ":" + address.getPort();
			try {
				RpcClient.connect(this.provider, this.memory, address, spec.transport(), 1)
					.get(timeout.toMillis(), TimeUnit.MILLISECONDS)
					.close();
			}
			catch (ExecutionException ex) {
				Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
				throw new StoreUnreachableException(ErrorMessages.unreachable(shown, reason(cause)), cause);
			}
			catch (TimeoutException ex) {
				throw new StoreUnreachableException(ErrorMessages.unreachable(shown, "no answer within " + timeout.toMillis()
						+ " ms"), ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new StoreUnreachableException("Interrupted while connecting to " + shown, ex);
			}
		}
	}

	private static String reason(Throwable cause) {
		String message = (cause.getMessage() != null) ? cause.getMessage() : cause.getClass().getSimpleName();
		// The transport's messages end with their own hint; keep the sentence whole.
		return message.endsWith(".") ? message.substring(0, message.length() - 1) : message;
	}

}
