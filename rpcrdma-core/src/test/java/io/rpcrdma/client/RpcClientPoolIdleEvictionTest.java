package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.transport.InboundReply;
import io.rpcrdma.transport.OutboundCall;
import io.rpcrdma.transport.RpcTransport;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Idle eviction in {@link RpcClientPool}, with time under the test's control: connections
 * above the minimum that carried no call for the idle timeout are closed, never one with a
 * call on it, never below the minimum.
 */
class RpcClientPoolIdleEvictionTest {

	private static final Duration IDLE = Duration.ofSeconds(60);

	private static final Duration DEADLINE = Duration.ofHours(1);

	private final ManualTimer timer = new ManualTimer();

	private final List<FakeTransport> transports = new ArrayList<>();

	private RpcClientPool pool(int min, int max, Duration idle) {
		RpcClientPool.Config config = RpcClientPool.Config.of(min, max).withIdleTimeout(idle);
		return new RpcClientPool("fake", () -> {
			FakeTransport transport = new FakeTransport();
			this.transports.add(transport);
			return CompletableFuture.completedFuture(new RpcClient(transport, "fake", 16, this.timer));
		}, config, this.timer, this.timer::nanoTime);
	}

	/** Opens connections up to the maximum: each call finds every connection busy. */
	private List<CompletableFuture<ReceivedReply>> callOnEveryConnection(RpcClientPool pool, int calls) {
		List<CompletableFuture<ReceivedReply>> replies = new ArrayList<>();
		for (int i = 0; i < calls; i++) {
			replies.add(pool.call(1, 1, 1, CallBody.NONE, false, DEADLINE));
		}
		return replies;
	}

	private void answerAll() {
		for (FakeTransport transport : this.transports) {
			transport.answerAll();
		}
	}

	private long openTransports() {
		return this.transports.stream().filter(FakeTransport::isOpen).count();
	}

	@Test
	void idleConnectionsAboveTheMinimumAreClosedAfterTheIdleTimeout() {
		RpcClientPool pool = pool(1, 3, IDLE);
		List<CompletableFuture<ReceivedReply>> replies = callOnEveryConnection(pool, 3);
		assertThat(pool.connections()).hasSize(3);
		answerAll();
		assertThat(replies).allMatch((reply) -> reply.isDone() && !reply.isCompletedExceptionally());

		this.timer.advance(IDLE.minusSeconds(1));
		assertThat(pool.connections()).as("not idle long enough yet").hasSize(3);
		this.timer.advance(IDLE);

		assertThat(pool.connections()).hasSize(1);
		assertThat(openTransports()).isEqualTo(1);
		this.timer.advance(IDLE.multipliedBy(10));
		assertThat(pool.connections()).as("never below the minimum").hasSize(1);
		assertThat(openTransports()).isEqualTo(1);
	}

	@Test
	void aConnectionWithACallOnItIsNotClosedHoweverLongTheCallTakes() {
		RpcClientPool pool = pool(1, 2, IDLE);
		List<CompletableFuture<ReceivedReply>> replies = callOnEveryConnection(pool, 2);
		assertThat(pool.connections()).hasSize(2);
		// The first connection's call completes; the second's does not.
		this.transports.get(0).answerAll();

		this.timer.advance(IDLE.multipliedBy(3));

		// The minimum of one would allow closing either: only the idle one may go.
		assertThat(this.transports.get(0).isOpen()).isFalse();
		assertThat(this.transports.get(1).isOpen()).isTrue();
		assertThat(replies.get(1)).isNotDone();
		this.transports.get(1).answerAll();
		assertThat(replies.get(1)).isCompleted();
		assertThat(pool.connections()).hasSize(1);
	}

	@Test
	void theLongestIdleConnectionGoesFirstAndARecentlyUsedOneStays() {
		RpcClientPool pool = pool(1, 2, IDLE);
		List<CompletableFuture<ReceivedReply>> replies = callOnEveryConnection(pool, 2);
		this.transports.get(0).answerAll();
		this.timer.advance(Duration.ofSeconds(40));
		this.transports.get(1).answerAll();
		assertThat(replies).allMatch(CompletableFuture::isDone);

		this.timer.advance(Duration.ofSeconds(21));

		assertThat(pool.connections()).hasSize(1);
		assertThat(this.transports.get(0).isOpen()).isFalse();
		assertThat(this.transports.get(1).isOpen()).isTrue();
	}

	@Test
	void aZeroIdleTimeoutKeepsEveryConnection() {
		RpcClientPool pool = pool(1, 3, Duration.ZERO);
		callOnEveryConnection(pool, 3);
		answerAll();

		this.timer.advance(Duration.ofDays(1));

		assertThat(pool.connections()).hasSize(3);
		assertThat(this.timer.scheduled()).isZero();
	}

	@Test
	void closingThePoolStopsTheSweep() {
		RpcClientPool pool = pool(1, 2, IDLE);
		assertThat(this.timer.scheduled()).isEqualTo(1);

		pool.close();

		assertThat(this.timer.scheduled()).isZero();
	}

	@Test
	void aNegativeIdleTimeoutIsRefused() {
		assertThatThrownBy(() -> RpcClientPool.Config.of(1, 2).withIdleTimeout(Duration.ofSeconds(-1)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("idleTimeout");
	}

	/** A connection whose calls the test answers. */
	private static final class FakeTransport implements RpcTransport {

		private final CompletableFuture<Void> closed = new CompletableFuture<>();

		private final List<CompletableFuture<InboundReply>> calls = new ArrayList<>();

		private final List<Integer> xids = new ArrayList<>();

		@Override
		public synchronized CompletableFuture<InboundReply> call(OutboundCall call) {
			CompletableFuture<InboundReply> reply = new CompletableFuture<>();
			this.calls.add(reply);
			this.xids.add(call.xid());
			return reply;
		}

		@Override
		public io.rpcrdma.transport.TransportStats stats() {
			return io.rpcrdma.transport.TransportStats.ZERO;
		}

		void answerAll() {
			List<CompletableFuture<InboundReply>> pending;
			List<Integer> ids;
			synchronized (this) {
				pending = new ArrayList<>(this.calls);
				ids = new ArrayList<>(this.xids);
				this.calls.clear();
				this.xids.clear();
			}
			for (int i = 0; i < pending.size(); i++) {
				RpcReply reply = RpcReply.success(ids.get(i));
				ByteBuffer message = ByteBuffer.allocate(RpcMessageCodec.encodedSize(reply));
				RpcMessageCodec.encodeReply(reply, new XdrEncoder(message));
				pending.get(i).complete(new InboundReply(ids.get(i), 1, message.flip(), List.of()));
			}
		}

		@Override
		public boolean isOpen() {
			return !this.closed.isDone();
		}

		@Override
		public CompletableFuture<Void> closeFuture() {
			return this.closed;
		}

		@Override
		public void close() {
			this.closed.complete(null);
		}

	}

}
