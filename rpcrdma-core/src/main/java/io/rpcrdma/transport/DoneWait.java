package io.rpcrdma.transport;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

import io.rpcrdma.memory.RegisteredBuffer;

/** A reply whose Read chunks the requester is pulling (RFC 5666 §11). */
final class DoneWait {

	private final RpcRdmaServerConnection connection;

	final int xid;

	final List<RegisteredBuffer> buffers;

	final CompletableFuture<Void> done;

	volatile ScheduledFuture<?> timer;

	DoneWait(RpcRdmaServerConnection connection, int xid, List<RegisteredBuffer> buffers, CompletableFuture<Void> done) {
		this.connection = connection;
		this.xid = xid;
		this.buffers = buffers;
		this.done = done;
	}

	void finish(boolean received) {
		ScheduledFuture<?> scheduled = this.timer;
		if (scheduled != null) {
			scheduled.cancel(false);
		}
		// Releasing rotates the STags: a late RDMA Read now fails (RFC 5666 §11).
		for (RegisteredBuffer buffer : this.buffers) {
			buffer.release();
		}
		this.connection.requestFinished();
		this.connection.replyAcknowledged();
		if (received) {
			this.done.complete(null);
		}
		else {
			this.done.completeExceptionally(new TransportClosedException("No RDMA_DONE for XID 0x"
					+ Integer.toHexString(this.xid) + " arrived; its Read chunk buffers were reclaimed"));
		}
	}

}
