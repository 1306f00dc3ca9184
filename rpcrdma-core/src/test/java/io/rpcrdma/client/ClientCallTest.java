package io.rpcrdma.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.AcceptStatus;
import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.oncrpc.UnknownStatusException;
import io.rpcrdma.transport.TransportClosedException;
import io.rpcrdma.xdr.XdrInvalidValueException;

/**
 * A call as the transport tells it its reply: results lent in the call's own buffer, error
 * replies as their exceptions, malformed replies failing the call clearly, Write chunk data.
 */
class ClientCallTest {

	private static final String ENDPOINT = "rdma://server:20049";

	private final ManualTimer timer = new ManualTimer();

	private final PendingCalls pending = new PendingCalls(ENDPOINT, 8, this.timer, 0x100);

	private final FutureReply reply = new FutureReply();

	private final ClientCall call = this.pending.register(100_003, 3, 7, null, Duration.ofSeconds(30), this.reply);

	private Throwable failure() {
		try {
			this.reply.get();
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
	void aSuccessReplyLendsItsResultsInTheCallsOwnBuffer() {
		ByteBuffer room = ClientCalls.deliver(this.call, ClientCalls.encoded(RpcReply.success(this.call.xid()), 99));

		ReceivedReply received = this.reply.join();
		assertThat(received.results().buffer()).as("read in place").isSameAs(room);
		assertThat(received.results().readInt()).isEqualTo(99);
		assertThat(received.header()).isEqualTo(RpcReply.success(this.call.xid()));
		assertThat(this.call.replyBuffer(64)).as("the same room next time").isSameAs(room);
		received.release();
		received.release();
		assertThat(received.isReleased()).isTrue();
	}

	@Test
	void aSuccessReplyWithAnotherVerifierStillReachesTheResults() {
		RpcReply header = new RpcReply(this.call.xid(),
				new AcceptedReply(new AuthSys(7, "client", 0, 0, new int[0]), AcceptStatus.SUCCESS));
		ClientCalls.deliver(this.call, ClientCalls.encoded(header, 5));

		assertThat(this.reply.join().results().readInt()).isEqualTo(5);
	}

	@Test
	void anErrorReplyFailsTheCallWithItsException() {
		ClientCalls.deliver(this.call, ClientCalls.encoded(RpcReply.progMismatch(this.call.xid(), 1, 2)));

		assertThat(failure()).isInstanceOf(ProgramVersionMismatchException.class)
			.hasMessageContaining("supports versions 1 to 2");
		assertThat(this.pending.size()).isZero();
	}

	@Test
	void aMalformedReplyFailsItsCallClearly() {
		ByteBuffer bad = ClientCalls.encoded(RpcReply.success(this.call.xid()));
		bad.putInt(bad.limit() - 4, 9);

		ClientCalls.deliver(this.call, bad);

		assertThat(failure()).isInstanceOf(MalformedReplyException.class)
			.hasCauseInstanceOf(UnknownStatusException.class)
			.hasMessageContaining("The reply to program 0x186a3 version 3 procedure 7");
	}

	@Test
	void aReplyTooShortToBeOneFailsItsCallClearly() {
		ClientCalls.deliver(this.call, ByteBuffer.allocate(2));

		assertThat(failure()).isInstanceOf(MalformedReplyException.class);
	}

	@Test
	void anRpcXidOtherThanTheTransportsFailsTheCall() {
		ClientCalls.deliver(this.call, ClientCalls.encoded(RpcReply.success(this.call.xid() + 1), 1));

		assertThat(failure()).isInstanceOf(MalformedReplyException.class)
			.hasMessageContaining("carries xid 0x" + Integer.toHexString(this.call.xid() + 1));
	}

	@Test
	void aLostConnectionFailsEveryCallAndRefusesNewOnes() {
		FutureReply other = new FutureReply();
		this.pending.register(1, 1, 1, null, Duration.ofSeconds(30), other);

		this.call.failed(new TransportClosedException("The connection closed"));

		assertThat(failure()).isInstanceOf(ConnectionLostException.class).hasMessageContaining("The connection closed");
		assertThat(other).isCompletedExceptionally();
		assertThatThrownBy(() -> this.pending.register(1, 1, 1, null, Duration.ofSeconds(1), new FutureReply()))
			.isInstanceOf(ConnectionLostException.class);
	}

	@Test
	void aLargeReplyGetsRoomOfItsOwn() {
		assertThat(this.call.replyBuffer(ClientCall.REUSED_REPLY_BUFFER_LIMIT + 1)).isNull();
		assertThat(this.call.replyBuffer(ClientCall.REUSED_REPLY_BUFFER_LIMIT).capacity())
			.isEqualTo(ClientCall.REUSED_REPLY_BUFFER_LIMIT);
	}

	@Test
	void aSuccessReplyLendsTheWriteChunkDataToTheCall() throws Exception {
		ByteBuffer placed = ByteBuffer.wrap(new byte[] { 1, 2, 3, 4, 5 });

		// The first result went by Write chunk (only its length word is inline, RFC 8166
		// §3.4.6); the second Write chunk came back empty and its result stayed inline.
		ClientCalls.deliver(this.call, ClientCalls.encoded(RpcReply.success(this.call.xid()), 5, 2, 0x0a0b_0000),
				List.of(placed, ByteBuffer.allocate(0)));

		ReceivedReply received = this.reply.get();
		assertThat(received.writeChunks()).hasSize(2);
		assertThat(received.writeChunk(0).remaining()).isEqualTo(5);
		assertThat(received.writeChunk(0).isReadOnly()).isTrue();
		ByteBuffer first = received.readDdpOpaque(0, 16);
		assertThat(first.get(0)).isEqualTo((byte) 1);
		assertThat(first.remaining()).isEqualTo(5);
		ByteBuffer second = received.readDdpOpaque(1, 16);
		assertThat(second.remaining()).isEqualTo(2);
		assertThat(second.get(0)).isEqualTo((byte) 0x0a);
		assertThat(received.results().remaining()).isZero();
		assertThatThrownBy(() -> received.writeChunk(2)).isInstanceOf(IndexOutOfBoundsException.class)
			.hasMessageContaining("no Write chunk 2");
		received.release();
	}

	@Test
	void lentWriteChunkBuffersGoBackWhenTheReplyIsReleasedAndNotBefore() throws Exception {
		java.util.concurrent.atomic.AtomicInteger released = new java.util.concurrent.atomic.AtomicInteger();
		ByteBuffer placed = ByteBuffer.wrap(new byte[] { 9, 8, 7 }).asReadOnlyBuffer();
		ByteBuffer message = ClientCalls.encoded(RpcReply.success(this.call.xid()), 3);

		this.call.replied(1, message, List.of(placed), null, released::incrementAndGet);

		ReceivedReply received = this.reply.get();
		assertThat(received.readDdpOpaque(0, 16).get(0)).as("read in place").isEqualTo((byte) 9);
		assertThat(released).as("lent while the reply is held").hasValue(0);
		received.release();
		received.release();
		assertThat(released).hasValue(1);
	}

	@Test
	void lentWriteChunkBuffersOfAReplyNobodyTakesGoBackAtOnce() {
		java.util.concurrent.atomic.AtomicInteger released = new java.util.concurrent.atomic.AtomicInteger();
		this.call.replied(1, ClientCalls.encoded(RpcReply.systemErr(this.call.xid())), List.of(ByteBuffer.allocate(4)),
				null, released::incrementAndGet);
		assertThat(failure()).isInstanceOf(RemoteSystemErrorException.class);
		assertThat(released).as("an error reply").hasValue(1);

		FutureReply late = new FutureReply();
		ClientCall cancelled = this.pending.register(1, 1, 1, null, java.time.Duration.ofSeconds(30), late);
		late.track(cancelled);
		late.cancel(false);
		cancelled.replied(1, ClientCalls.encoded(RpcReply.success(cancelled.xid()), 4), List.of(ByteBuffer.allocate(4)),
				null, released::incrementAndGet);
		assertThat(released).as("a late reply").hasValue(2);
	}

	@Test
	void aWriteChunkWhoseLengthDisagreesWithTheXdrLengthWordIsRejected() throws Exception {
		ClientCalls.deliver(this.call, ClientCalls.encoded(RpcReply.success(this.call.xid()), 7),
				List.of(ByteBuffer.allocate(5)));

		ReceivedReply received = this.reply.get();
		assertThatThrownBy(() -> received.readDdpOpaque(0, 16)).isInstanceOf(XdrInvalidValueException.class)
			.hasMessageContaining("holds 5 bytes but the result's XDR length word says 7");
		received.release();
	}

}
