package io.rpcrdma.benchmarks.compare;

import java.lang.reflect.Method;

/**
 * How the throughput case's client threads are made: platform threads always, virtual threads
 * on Java 21 or later (found reflectively, as the benchmarks compile for Java 17).
 */
enum ClientThreads {

	/** {@code new Thread(...)}. */
	PLATFORM,

	/** {@code Thread.ofVirtual().unstarted(...)}. */
	VIRTUAL;

	private static final Method OF_VIRTUAL = method(Thread.class, "ofVirtual");

	private static final Method UNSTARTED = (OF_VIRTUAL != null) ? builderMethod() : null;

	/**
	 * Whether this kind of thread exists here.
	 * @return {@code false} for virtual threads before Java 21
	 */
	boolean available() {
		return this == PLATFORM || UNSTARTED != null;
	}

	/**
	 * Makes an unstarted thread.
	 * @param task what it runs
	 * @param name its name
	 * @return the thread
	 */
	Thread create(Runnable task, String name) {
		if (this == PLATFORM) {
			Thread thread = new Thread(task, name);
			thread.setDaemon(true);
			return thread;
		}
		try {
			Thread thread = (Thread) UNSTARTED.invoke(OF_VIRTUAL.invoke(null), task);
			thread.setName(name);
			return thread;
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Cannot create a virtual thread", ex);
		}
	}

	private static Method builderMethod() {
		try {
			return Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class);
		}
		catch (ReflectiveOperationException ex) {
			return null;
		}
	}

	private static Method method(Class<?> type, String name) {
		try {
			return type.getMethod(name);
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
	}

}
