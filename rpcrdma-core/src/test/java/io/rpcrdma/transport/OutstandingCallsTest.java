package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rpcrdma.xdr.OpaquePadding;

/**
 * The requester's table of outstanding calls by XID and its free list, on their own.
 */
class OutstandingCallsTest {

	private static final CallCompletion IGNORED = new CallCompletion() {

		@Override
		public void replied(int version, ByteBuffer message, List<ByteBuffer> writeChunks, OpaquePadding padding) {
		}

		@Override
		public void failed(Throwable failure) {
		}

	};

	private final OutstandingCalls calls = new OutstandingCalls(2, 1024);

	@Test
	void aCallIsFoundByItsXidUntilRemoved() {
		PendingCall pc = enter(7);
		assertThat(this.calls.size()).isOne();
		assertThat(this.calls.isPending(pc)).isTrue();
		assertThat(this.calls.remove(pc)).isTrue();
		assertThat(this.calls.remove(pc)).isFalse();
		assertThat(this.calls.isPending(pc)).isFalse();
	}

	@Test
	void aSecondCallWithTheSameXidIsRefused() {
		PendingCall first = enter(7);
		PendingCall second = this.calls.obtain(call(7), IGNORED);
		assertThat(this.calls.putIfAbsent(second)).isSameAs(first);
	}

	@Test
	void onlyASentCallIsTakenForAnInlineReply() {
		PendingCall pc = enter(9);
		assertThat(this.calls.removeSent(9)).isNull();
		assertThat(this.calls.takeCredit(pc)).isTrue();
		assertThat(this.calls.removeSent(9)).isSameAs(pc);
		assertThat(this.calls.size()).isZero();
	}

	@Test
	void aCreditThatComesAfterTheCallFinishedIsNotTaken() {
		PendingCall pc = enter(3);
		this.calls.remove(pc);
		assertThat(this.calls.takeCredit(pc)).isFalse();
		assertThat(pc.creditHeld).isFalse();
	}

	@Test
	void aCallIsReusedOnlyOnceItsLastHoldIsReleased() {
		PendingCall pc = enter(5);
		PendingCall borrowed = this.calls.borrow(5);
		assertThat(borrowed).isSameAs(pc);
		this.calls.remove(pc);
		this.calls.release(pc);
		this.calls.release(pc);
		assertThat(this.calls.freeCount()).isZero();
		this.calls.release(borrowed);
		assertThat(this.calls.freeCount()).isOne();
		assertThat(pc.completion).isNull();
		assertThat(this.calls.obtain(call(6), IGNORED)).isSameAs(pc);
		assertThat(pc.xid).isEqualTo(6);
	}

	@Test
	void theFreeListIsBounded() {
		List<PendingCall> made = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			made.add(enter(100 + i));
		}
		for (PendingCall pc : made) {
			this.calls.remove(pc);
			this.calls.release(pc);
			this.calls.release(pc);
		}
		// Twice the two credits asked for, at least four.
		assertThat(this.calls.freeCount()).isEqualTo(4);
	}

	@Test
	void clearingTellsEveryCallTakenOut() {
		enter(1);
		enter(2);
		List<PendingCall> removed = new ArrayList<>();
		this.calls.clear(removed::add);
		assertThat(removed).extracting((pc) -> pc.xid).containsExactlyInAnyOrder(1, 2);
		assertThat(this.calls.size()).isZero();
	}

	/** Enters a call as RpcRdmaClientConnection#call does: the caller's hold and the table's. */
	private PendingCall enter(int xid) {
		PendingCall pc = this.calls.obtain(call(xid), IGNORED);
		pc.holds = 2;
		assertThat(this.calls.putIfAbsent(pc)).isNull();
		return pc;
	}

	private static OutboundCall call(int xid) {
		ByteBuffer message = ByteBuffer.allocate(16).putInt(0, xid);
		return new OutboundCall(message, List.of(), List.of(), 256);
	}

}
