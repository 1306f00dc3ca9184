package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.oncrpc.UnknownStatusException;
import io.rpcrdma.xdr.XdrEncoder;

class ReplyRouterTest {

	private static final String ENDPOINT = "rdma://server:20049";

	private final ManualTimer timer = new ManualTimer();

	private final PendingCalls<ReceivedReply> pending = new PendingCalls<>(ENDPOINT, 8, this.timer, 0x100);

	private final ReplyRouter router = new ReplyRouter(this.pending);

	private final AtomicInteger releases = new AtomicInteger();

	private static ByteBuffer encoded(RpcReply reply, int... results) {
		ByteBuffer buffer = ByteBuffer.allocate(RpcMessageCodec.encodedSize(reply) + 4 * results.length);
		XdrEncoder encoder = new XdrEncoder(buffer);
		RpcMessageCodec.encodeReply(reply, encoder);
		for (int result : results) {
			encoder.writeInt(result);
		}
		return buffer.flip();
	}

	private PendingCall<ReceivedReply> register() {
		return this.pending.register(100_003, 3, 7, Duration.ofSeconds(30));
	}

	private static Throwable failureOf(PendingCall<ReceivedReply> call) {
		try {
			call.reply().get();
			throw new AssertionError("call succeeded");
		}
		catch (ExecutionException ex) {
			return ex.getCause();
		}
		catch (InterruptedException ex) {
			throw new AssertionError(ex);
		}
	}

	@Test
	void aSuccessReplyLendsItsResultsToTheCall() {
		PendingCall<ReceivedReply> call = register();

		assertThat(this.router.route(encoded(RpcReply.success(call.xid()), 99), this.releases::incrementAndGet)).isTrue();

		ReceivedReply reply = call.reply().join();
		assertThat(reply.results().readInt()).isEqualTo(99);
		assertThat(this.releases).as("still lent").hasValue(0);
		reply.release();
		reply.release();
		assertThat(this.releases).hasValue(1);
	}

	@Test
	void anErrorReplyFailsTheCallWithItsExceptionAndReleasesTheBuffer() {
		PendingCall<ReceivedReply> call = register();

		assertThat(this.router.route(encoded(RpcReply.progMismatch(call.xid(), 1, 2)), this.releases::incrementAndGet))
			.isTrue();

		assertThat(failureOf(call)).isInstanceOf(ProgramVersionMismatchException.class)
			.hasMessageContaining("supports versions 1 to 2");
		assertThat(this.releases).hasValue(1);
	}

	@Test
	void aMalformedReplyFailsItsCallClearly() {
		PendingCall<ReceivedReply> call = register();
		ByteBuffer bad = encoded(RpcReply.success(call.xid()));
		bad.putInt(bad.limit() - 4, 9);

		assertThat(this.router.route(bad, this.releases::incrementAndGet)).isTrue();

		assertThat(failureOf(call)).isInstanceOf(MalformedReplyException.class)
			.hasCauseInstanceOf(UnknownStatusException.class)
			.hasMessageContaining("The reply to program 100003 version 3 procedure 7");
		assertThat(this.releases).hasValue(1);
		assertThat(this.router.malformedReplies()).isEqualTo(1);
	}

	@Test
	void aReplyForNoPendingCallIsReleasedAndCounted() {
		PendingCall<ReceivedReply> call = register();
		call.cancel();

		assertThat(this.router.route(encoded(RpcReply.success(call.xid()), 1), this.releases::incrementAndGet)).isFalse();
		assertThat(this.router.route(encoded(RpcReply.systemErr(0x7777)), this.releases::incrementAndGet)).isFalse();
		assertThat(this.router.route(ByteBuffer.allocate(2), this.releases::incrementAndGet)).isFalse();

		assertThat(this.releases).hasValue(3);
		assertThat(this.pending.lateReplies()).isEqualTo(2);
	}

	@Test
	void aSuccessReplyLendsTheWriteChunkDataToTheCall() throws Exception {
		PendingCall<ReceivedReply> call = register();
		ByteBuffer placed = ByteBuffer.wrap(new byte[] { 1, 2, 3, 4, 5 });

		// The first result went by Write chunk (only its length word is inline, RFC 8166
		// §3.4.6); the second Write chunk came back empty and its result stayed inline.
		ByteBuffer message = encoded(RpcReply.success(call.xid()), 5, 2, 0x0a0b_0000);
		assertThat(this.router.route(message, java.util.List.of(placed, ByteBuffer.allocate(0)),
				this.releases::incrementAndGet)).isTrue();

		ReceivedReply reply = call.reply().get();
		assertThat(reply.writeChunks()).hasSize(2);
		assertThat(reply.writeChunk(0).remaining()).isEqualTo(5);
		assertThat(reply.writeChunk(0).isReadOnly()).isTrue();
		ByteBuffer first = reply.readDdpOpaque(0, 16);
		assertThat(first.get(0)).isEqualTo((byte) 1);
		assertThat(first.remaining()).isEqualTo(5);
		ByteBuffer second = reply.readDdpOpaque(1, 16);
		assertThat(second.remaining()).isEqualTo(2);
		assertThat(second.get(0)).isEqualTo((byte) 0x0a);
		assertThat(reply.results().remaining()).isZero();
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> reply.writeChunk(2))
			.isInstanceOf(IndexOutOfBoundsException.class)
			.hasMessageContaining("no Write chunk 2");
		reply.release();
		assertThat(this.releases).hasValue(1);
	}

	@Test
	void aWriteChunkWhoseLengthDisagreesWithTheXdrLengthWordIsRejected() throws Exception {
		PendingCall<ReceivedReply> call = register();
		ByteBuffer message = encoded(RpcReply.success(call.xid()), 7);
		this.router.route(message, java.util.List.of(ByteBuffer.allocate(5)), this.releases::incrementAndGet);

		ReceivedReply reply = call.reply().get();
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> reply.readDdpOpaque(0, 16))
			.isInstanceOf(io.rpcrdma.xdr.XdrInvalidValueException.class)
			.hasMessageContaining("holds 5 bytes but the result's XDR length word says 7");
		reply.release();
	}

}
