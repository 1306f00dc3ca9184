package io.rpcrdma.spring.boot.test.slice;

import java.util.concurrent.CompletableFuture;

import io.rpcrdma.spring.boot.RpcService;
import io.rpcrdma.spring.boot.sample.Greeter;

/**
 * The slice's service.
 */
@RpcService
class EchoService implements Greeter {

	@Override
	public String greet(String name) {
		return "Echo " + name;
	}

	@Override
	public CompletableFuture<String> slowGreet(String name) {
		return CompletableFuture.completedFuture(name);
	}

}
