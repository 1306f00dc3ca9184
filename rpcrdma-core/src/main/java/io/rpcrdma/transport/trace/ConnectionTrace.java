package io.rpcrdma.transport.trace;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;

import io.rpcrdma.protocol.ErrVers;
import io.rpcrdma.protocol.Rdma2ErrBadHeader;
import io.rpcrdma.protocol.Rdma2ErrInvalOption;
import io.rpcrdma.protocol.RdmaErrChunk;
import io.rpcrdma.protocol.RdmaErrorHeader;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;

/**
 * The trace events of one connection, each written only while a recording has it enabled
 * ({@link TraceSwitch}). One per connection; thread-safe (each event is its own object).
 */
public final class ConnectionTrace {

	private static final AtomicLong NUMBERS = new AtomicLong();

	private final long number = NUMBERS.incrementAndGet();

	/** The peer's address once connected, for the disconnect event. */
	private volatile String peer = "";

	/** @return the connection's number in this process, as its events carry it */
	public long number() {
		return this.number;
	}

	/**
	 * The connection was established.
	 * @param role {@code requester} or {@code responder}
	 * @param local this side's address
	 * @param remote the peer's address
	 */
	public void connected(String role, InetSocketAddress local, InetSocketAddress remote) {
		this.peer = String.valueOf(remote);
		if (TraceSwitch.connections) {
			ConnectEvent event = new ConnectEvent();
			event.connection = this.number;
			event.role = role;
			event.local = String.valueOf(local);
			event.peer = this.peer;
			event.commit();
		}
	}

	/** @param reason why the connection went down */
	public void disconnected(String reason) {
		if (TraceSwitch.connections) {
			DisconnectEvent event = new DisconnectEvent();
			event.connection = this.number;
			event.peer = this.peer;
			event.reason = reason;
			event.commit();
		}
	}

	/** @param request a Send, RDMA Read or RDMA Write posted */
	public void posted(SendWorkRequest request) {
		if (TraceSwitch.posts) {
			post(request.opcode().name(), request.wrId(), request.totalLength(), request.sgList().size());
		}
	}

	/** @param request a Receive posted */
	public void posted(ReceiveWorkRequest request) {
		if (TraceSwitch.posts) {
			post("RECV", request.wrId(), request.totalLength(), request.sgList().size());
		}
	}

	private void post(String opcode, long wrId, long bytes, int entries) {
		PostEvent event = new PostEvent();
		event.connection = this.number;
		event.opcode = opcode;
		event.wrId = wrId;
		event.bytes = bytes;
		event.entries = entries;
		event.commit();
	}

	/** @param wc a work completion polled */
	public void completed(WorkCompletion wc) {
		if (TraceSwitch.completions) {
			CompletionEvent event = new CompletionEvent();
			event.connection = this.number;
			event.opcode = (wc.opcode() != null) ? wc.opcode().name() : "";
			event.wrId = wc.wrId();
			event.status = String.valueOf(wc.status());
			event.bytes = wc.byteLength();
			event.commit();
		}
	}

	/** @param error an RDMA_ERROR this side sent */
	public void errorSent(RdmaErrorHeader error) {
		if (TraceSwitch.errors) {
			error("sent", error);
		}
	}

	/** @param error an RDMA_ERROR the peer sent */
	public void errorReceived(RdmaErrorHeader error) {
		if (TraceSwitch.errors) {
			error("received", error);
		}
	}

	private void error(String direction, RdmaErrorHeader error) {
		RdmaErrorEvent event = new RdmaErrorEvent();
		event.connection = this.number;
		event.direction = direction;
		event.xid = error.xid();
		event.error = name(error);
		event.commit();
	}

	/** The error's name as RFC 8166 §4.5 and the Version Two draft §4.2 spell it. */
	static String name(RdmaErrorHeader error) {
		if (error instanceof ErrVers) {
			return (error.version() == 1) ? "ERR_VERS" : "RDMA_ERR_VERS";
		}
		if (error instanceof RdmaErrChunk) {
			return "ERR_CHUNK";
		}
		if (error instanceof Rdma2ErrBadHeader) {
			return "RDMA_ERR_BAD_HEADER";
		}
		return (error instanceof Rdma2ErrInvalOption) ? "RDMA_ERR_INVAL_OPTION" : "RDMA_ERROR " + error.errorCode();
	}

}
