package io.rpcrdma.benchmarks.compare;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * One contender's idle connections, as {@link IdleClients} opens them in a JVM of its own.
 */
interface IdleConnector extends AutoCloseable {

	/** The contenders that have idle connections, as {@link Contenders} names them. */
	List<String> CONTENDERS = List.of(Contenders.SOCKET, Contenders.GRPC, Contenders.SIW);

	/**
	 * Opens one connection and returns once it is established: the server can count it.
	 * @return what closes it
	 * @throws Exception if it cannot be opened (the server or the machine refused it)
	 */
	AutoCloseable open() throws Exception;

	/** @return what this side registered for its connections; -1 for a contender that registers no memory */
	long registeredBytes();

	/**
	 * @param contender one of {@link #CONTENDERS}
	 * @param server where the contender's server listens
	 * @return the contender's connector, open
	 * @throws Exception if it cannot be opened (rpcrdma's provider or memory pool)
	 * @throws IllegalArgumentException for another contender
	 */
	static IdleConnector of(String contender, InetSocketAddress server) throws Exception {
		return switch (contender) {
			case Contenders.SOCKET -> new IdleSocketConnector(server);
			case Contenders.GRPC -> new IdleGrpcConnector(server);
			case Contenders.SIW -> new IdleSiwConnector(server);
			default -> throw new IllegalArgumentException(
					"No idle connections for a contender named " + contender + "; choose from " + CONTENDERS);
		};
	}

}
