package io.rpcrdma.spring.boot.sample;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.spring.boot.RpcService;

/**
 * Serves {@link Greeter}. {@link #slowGreet} blocks until {@link #release} opens, so tests
 * can hold a call in flight.
 */
@RpcService
public class GreeterService implements Greeter {

	/** Counts down when a slow call has entered the handler. */
	public final CountDownLatch entered = new CountDownLatch(1);

	/** Lets slow calls finish. */
	public final CountDownLatch release = new CountDownLatch(1);

	/** How many calls ran. */
	public final AtomicInteger calls = new AtomicInteger();

	@Override
	public String greet(String name) {
		this.calls.incrementAndGet();
		return "Hello, " + name;
	}

	@Override
	public CompletableFuture<String> slowGreet(String name) {
		this.calls.incrementAndGet();
		this.entered.countDown();
		try {
			if (!this.release.await(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("slowGreet was never released");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		return CompletableFuture.completedFuture("Hello slowly, " + name);
	}

}
