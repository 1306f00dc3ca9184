package io.rpcrdma.spring.boot.sample;

import java.util.concurrent.CompletableFuture;

/**
 * Another {@link Greeter}: serving it next to {@link GreeterService} is a conflict. Not a
 * component: tests register it explicitly.
 */
public class SecondGreeterService implements Greeter {

	@Override
	public String greet(String name) {
		return "Hi, " + name;
	}

	@Override
	public CompletableFuture<String> slowGreet(String name) {
		return CompletableFuture.completedFuture(name);
	}

}
