package io.rpcrdma.benchmarks.compare;

import java.util.Optional;

/**
 * One way of making a remote call that the comparison measures: its server is running once
 * the contender is open, and each client thread gets a {@link Session} of its own.
 */
interface Contender extends AutoCloseable {

	/** @return the name in tables, files and plots */
	String name();

	/**
	 * Opens what one client thread calls through.
	 * @return the session
	 * @throws Exception if it cannot connect
	 */
	Session openSession() throws Exception;

	/**
	 * @return the process the server runs in, when it is not the measuring JVM, so that its
	 * CPU time is counted apart ({@link CpuTime})
	 */
	default Optional<ProcessHandle> serverProcess() {
		return Optional.empty();
	}

	/** Stops the server and frees what the contender holds. */
	@Override
	void close() throws Exception;

	/**
	 * One client thread's calls, each blocking until its reply arrived. Not thread-safe.
	 */
	interface Session extends AutoCloseable {

		/**
		 * A small call: sends the bytes, waits for them to come back.
		 * @param request the bytes
		 * @throws Exception if the call fails
		 */
		void echo(byte[] request) throws Exception;

		/**
		 * Sends {@code length} bulk bytes, waits for the acknowledgement.
		 * @param length bytes, at most {@link BenchService#MAX_BULK}
		 * @throws Exception if the call fails
		 */
		void put(int length) throws Exception;

		/**
		 * Asks for {@code length} bulk bytes and waits for all of them.
		 * @param length bytes, at most {@link BenchService#MAX_BULK}
		 * @throws Exception if the call fails
		 */
		void get(int length) throws Exception;

		@Override
		void close() throws Exception;

	}

}
