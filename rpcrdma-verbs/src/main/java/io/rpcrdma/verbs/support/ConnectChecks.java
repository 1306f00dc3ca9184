package io.rpcrdma.verbs.support;

import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.function.Function;

import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.ConnectionFailedException;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairState;
import io.rpcrdma.verbs.QueuePairStateException;
import io.rpcrdma.verbs.RdmaProvider;

/**
 * The checks every provider applies to the queue pair of {@code RdmaProvider.connect} and
 * {@code ConnectionRequest.accept}: it must be one of the provider's own, as a verbs
 * connection (rdma_connect, rdma_accept) can only use a queue pair of its device context,
 * and it must be in INIT and not connecting already, as a queue pair carries one connection
 * in its life.
 */
public final class ConnectChecks {

	private ConnectChecks() {
	}

	/**
	 * Checks that a queue pair was created by {@code provider}.
	 * @param <Q> the provider's queue pair type
	 * @param provider the provider asked to connect
	 * @param queuePair the queue pair to connect, may be {@code null}
	 * @param type the provider's queue pair class
	 * @param owner the provider that created a queue pair of that class
	 * @return the queue pair, as the provider's type
	 * @throws IllegalArgumentException if it is not one of the provider's
	 */
	public static <Q extends QueuePair> Q ownQueuePair(RdmaProvider provider, QueuePair queuePair, Class<Q> type,
			Function<Q, RdmaProvider> owner) {
		if (!type.isInstance(queuePair) || owner.apply(type.cast(queuePair)) != provider) {
			throw new IllegalArgumentException("Connect needs a queue pair created by this " + provider.name()
					+ " provider, got " + queuePair);
		}
		return type.cast(queuePair);
	}

	/**
	 * The refusal of a connect with a queue pair that another connect (or accept) took
	 * first, or that left INIT.
	 * @param queuePair the queue pair
	 * @return the exception to throw
	 */
	public static QueuePairStateException alreadyConnecting(QueuePair queuePair) {
		return new QueuePairStateException("Queue pair " + queuePair.queuePairNumber() + " is " + queuePair.state()
				+ " or already connecting; connect a new queue pair in INIT");
	}

	/**
	 * Checks the queue pair given to accept a connection request: created by the listening
	 * provider, and in INIT.
	 * @param <Q> the provider's queue pair type
	 * @param listening the provider of the listener that received the request
	 * @param queuePair the queue pair to accept with, may be {@code null}
	 * @param type the provider's queue pair class
	 * @param owner the provider that created a queue pair of that class
	 * @return the queue pair, as the provider's type
	 * @throws IllegalArgumentException if it is not one of the provider's
	 * @throws QueuePairStateException if it is not in INIT
	 */
	public static <Q extends QueuePair> Q acceptableQueuePair(RdmaProvider listening, QueuePair queuePair,
			Class<Q> type, Function<Q, RdmaProvider> owner) {
		if (!type.isInstance(queuePair) || owner.apply(type.cast(queuePair)) != listening) {
			throw new IllegalArgumentException("Accept needs a queue pair created by the listening " + listening.name()
					+ " provider, got " + queuePair);
		}
		Q qp = type.cast(queuePair);
		if (qp.state() != QueuePairState.INIT) {
			throw new QueuePairStateException(
					"Accept needs a queue pair in INIT, but queue pair " + qp.queuePairNumber() + " is " + qp.state());
		}
		return qp;
	}

	/**
	 * The failure of answering a connection request a second time.
	 * @param remote the requester
	 * @param outcome how it was answered: {@code ACCEPTED}, {@code REJECTED} or {@code EXPIRED}
	 * @return the exception to throw, saying what to do
	 */
	public static ConnectionFailedException alreadyAnswered(InetSocketAddress remote, String outcome) {
		boolean expired = outcome.equals("EXPIRED");
		String advice = switch (outcome) {
			case "EXPIRED" -> "; answer requests before the requester's connect timeout";
			case "REJECTED" -> "; a handler rejected it, or its listener closed (close listeners after answering)";
			default -> "";
		};
		return new ConnectionFailedException(expired ? ConnectionEventType.TIMEOUT : ConnectionEventType.REJECTED,
				"The connection request from " + remote + " was already " + outcome.toLowerCase(Locale.ROOT) + advice);
	}

}
