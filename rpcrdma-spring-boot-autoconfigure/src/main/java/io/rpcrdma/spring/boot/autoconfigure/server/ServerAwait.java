package io.rpcrdma.spring.boot.autoconfigure.server;

import java.util.concurrent.CountDownLatch;

/**
 * A non-daemon thread that does nothing but wait until it is released, so the JVM stays alive
 * while a server listens (what Spring Boot's {@code TomcatWebServer} does with its
 * "container" await thread). Without it a server-only application exits as soon as
 * {@code main} returns, its transport threads being daemons.
 */
final class ServerAwait {

	private final CountDownLatch released = new CountDownLatch(1);

	private final Thread thread;

	private ServerAwait(String name) {
		this.thread = new Thread(this::await, name + "-await");
		this.thread.setDaemon(false);
	}

	/**
	 * @param name what the thread's name starts with
	 * @return a started await thread
	 */
	static ServerAwait start(String name) {
		ServerAwait await = new ServerAwait(name);
		await.thread.start();
		return await;
	}

	private void await() {
		try {
			this.released.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Lets the thread end, and the JVM exit once nothing else holds it. */
	void release() {
		this.released.countDown();
	}

}
