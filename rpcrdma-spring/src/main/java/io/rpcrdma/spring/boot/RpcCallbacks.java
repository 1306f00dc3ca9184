package io.rpcrdma.spring.boot;

import java.util.Objects;

import io.rpcrdma.backchannel.Backchannels;
import io.rpcrdma.service.RpcCallContext;
import io.rpcrdma.service.ServiceClientFactory;

/**
 * Proxies of the programs a calling client serves ({@link RpcCallbackService}), for an
 * {@link RpcService} method: calls go back to that client on the connection its current call
 * came on (RFC 8167). Take the proxy while the method runs; it stays usable after, while the
 * connection lives, and fails with {@code io.rpcrdma.client.ConnectionLostException} once the
 * client has gone.
 */
public final class RpcCallbacks {

	private final ServiceClientFactory proxies;

	/**
	 * @param proxies creates the proxies, with the application's codecs
	 */
	public RpcCallbacks(ServiceClientFactory proxies) {
		this.proxies = Objects.requireNonNull(proxies, "proxies");
	}

	/**
	 * @param <T> the interface
	 * @param callbackInterface an interface annotated {@code @RpcProgram} that the client
	 * serves as an {@code @RpcCallbackService}
	 * @return a proxy calling the client of the call running on this thread
	 * @throws IllegalStateException if no {@code @RpcService} method runs on this thread
	 * @throws io.rpcrdma.server.BackwardDirectionUnavailableException if the server was
	 * started without backward-direction credits ({@code rpcrdma.server.backchannel.credits=0})
	 */
	public <T> T forCaller(Class<T> callbackInterface) {
		return this.proxies.create(callbackInterface, Backchannels.callerOf(RpcCallContext.current()));
	}

}
