package io.rpcrdma.benchmarks.compare;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;

/**
 * Idle connections of the gRPC contender: a {@link ManagedChannel} per connection (an HTTP/2
 * connection each, as the connection curve has them), forced to connect and held until closed.
 * The channels share Netty's default event loop group, as gRPC-java's channels do.
 */
final class IdleGrpcConnector implements IdleConnector {

	/** How long a channel may take to become READY. */
	private static final long READY_NANOS = TimeUnit.SECONDS.toNanos(10);

	/**
	 * A channel goes idle (and closes its connection) after 30 minutes without calls by default;
	 * an idle timeout over 30 days turns that off, so the connections stay open for the curve.
	 */
	private static final long NO_IDLE_TIMEOUT_DAYS = 365;

	private final InetSocketAddress server;

	IdleGrpcConnector(InetSocketAddress server) {
		this.server = server;
	}

	@Override
	public AutoCloseable open() throws IOException, InterruptedException {
		ManagedChannel channel = NettyChannelBuilder.forAddress(this.server)
			.usePlaintext()
			.idleTimeout(NO_IDLE_TIMEOUT_DAYS, TimeUnit.DAYS)
			.build();
		try {
			awaitReady(channel);
		}
		catch (IOException | InterruptedException | RuntimeException failed) {
			channel.shutdownNow();
			throw failed;
		}
		return channel::shutdownNow;
	}

	/** Asks the channel to connect and waits until it is READY, within {@link #READY_NANOS}. */
	private static void awaitReady(ManagedChannel channel) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + READY_NANOS;
		ConnectivityState state = channel.getState(true);
		while (state != ConnectivityState.READY) {
			if (state == ConnectivityState.TRANSIENT_FAILURE || state == ConnectivityState.SHUTDOWN) {
				throw new IOException("the gRPC channel could not connect: " + state);
			}
			CountDownLatch changed = new CountDownLatch(1);
			channel.notifyWhenStateChanged(state, changed::countDown);
			if (!changed.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
				throw new IOException("the gRPC channel is " + channel.getState(false) + ", not READY, after "
						+ TimeUnit.NANOSECONDS.toSeconds(READY_NANOS) + " s");
			}
			state = channel.getState(true);
		}
	}

	@Override
	public long registeredBytes() {
		return -1;
	}

	@Override
	public void close() {
		// Nothing shared beyond gRPC's own event loop group, which lives with the JVM.
	}

}
