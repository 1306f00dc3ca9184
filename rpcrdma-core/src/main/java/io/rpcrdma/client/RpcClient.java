package io.rpcrdma.client;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.transport.BackwardCallHandler;
import io.rpcrdma.transport.DdpRange;
import io.rpcrdma.transport.OutboundCall;
import io.rpcrdma.transport.PeerVersionCache;
import io.rpcrdma.transport.RegisteredItem;
import io.rpcrdma.transport.RpcRdmaClientConnection;
import io.rpcrdma.transport.RpcTransport;
import io.rpcrdma.transport.TransportClosedException;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * An ONC RPC client over one RPC-over-RDMA connection: {@link PendingCalls} allocates xids and
 * keeps deadlines, the {@link RpcTransport} conveys calls and replies to each call's recycled
 * {@link ClientCall}, which turns error replies into {@link RpcCallException}s.
 *
 * <p>One client is one connection; when it closes (either side, or a failure), every pending
 * call fails at once with {@link ConnectionLostException} whose cause is the transport's
 * {@link TransportClosedException}, and later calls fail the same way. Reconnecting is the
 * business of a pool of clients.
 *
 * <p>Futures complete on the transport's receive thread or the timer thread; non-async
 * dependents must not block.
 */
public final class RpcClient implements RpcCaller, AutoCloseable {

	/** The encoded call size {@link #call(int, int, int, CallBody, Duration)} allows. */
	public static final int DEFAULT_MAX_CALL_SIZE = 64 * 1024;

	/**
	 * The most bytes an RPC call header takes (RFC 5531 §9): six words, then a credential and a
	 * verifier of at most 400 bytes of body each. Callers sizing a {@link CallChunks} add it to
	 * their arguments' size.
	 */
	public static final int MAX_CALL_HEADER_SIZE = 6 * 4 + 2 * (4 + 4 + 400);

	private final RpcTransport transport;

	private final PendingCalls pending;

	private final String endpoint;

	/**
	 * Joins a connected transport.
	 * @param transport the connection
	 * @param endpoint the server, named in exceptions
	 * @param maxPending the most calls awaiting replies at once
	 * @param timer runs the deadlines
	 */
	public RpcClient(RpcTransport transport, String endpoint, int maxPending, CallTimer timer) {
		this.transport = Objects.requireNonNull(transport, "transport");
		this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
		this.pending = new PendingCalls(endpoint, maxPending, timer);
		transport.closeFuture().whenComplete((ignored, error) -> connectionLost(
				new TransportClosedException("The connection to " + endpoint + " closed")));
		if (!transport.isOpen()) {
			connectionLost(new TransportClosedException("The connection to " + endpoint + " is closed"));
		}
	}

	/**
	 * Connects to a server.
	 * @param provider the RDMA provider
	 * @param pool registered memory
	 * @param address the server
	 * @param config the transport settings
	 * @param maxPending the most calls awaiting replies at once
	 * @return completes with the client once connected
	 */
	public static CompletableFuture<RpcClient> connect(RdmaProvider provider, RegisteredMemoryPool pool,
			InetSocketAddress address, TransportConfig config, int maxPending) {
		return RpcRdmaClientConnection.connect(provider, pool, address, config)
			.thenApply((connection) -> new RpcClient(connection, address.toString(), maxPending, CallTimer.shared()));
	}

	/**
	 * Connects to a server and serves it backward-direction calls on the same connection
	 * (RFC 8167): the server's handlers reach them through {@code Backchannels#callerOf(ServerCall)}.
	 * {@code io.rpcrdma.backchannel.CallbackServices} makes the handler of a set of programs.
	 * @param provider the RDMA provider
	 * @param pool registered memory
	 * @param address the server
	 * @param config the transport settings
	 * @param maxPending the most calls awaiting replies at once
	 * @param backwardHandler serves the server's calls
	 * @param backwardCredits the backward-direction credits granted (RFC 8167 §4.1), 1 to
	 * {@link io.rpcrdma.transport.RpcRdmaServerConnection#MAX_BACKWARD_CREDITS}
	 * @return completes with the client once connected
	 */
	public static CompletableFuture<RpcClient> connect(RdmaProvider provider, RegisteredMemoryPool pool,
			InetSocketAddress address, TransportConfig config, int maxPending, BackwardCallHandler backwardHandler,
			int backwardCredits) {
		Objects.requireNonNull(backwardHandler, "backwardHandler");
		return RpcRdmaClientConnection
			.connect(provider, pool, address, config, PeerVersionCache.shared(), backwardHandler, backwardCredits)
			.thenApply((connection) -> new RpcClient(connection, address.toString(), maxPending, CallTimer.shared()));
	}

	/**
	 * Calls a procedure whose call and reply fit inline.
	 * @param program the program
	 * @param version its version
	 * @param procedure the procedure
	 * @param arguments writes the arguments
	 * @param timeout how long to wait for the reply
	 * @return completes with the reply (release it after decoding the results), or fails with
	 * an {@link RpcCallException}
	 */
	public CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments,
			Duration timeout) {
		return call(program, version, procedure, arguments, CallChunks.of(DEFAULT_MAX_CALL_SIZE, 0), timeout);
	}

	/**
	 * Calls a procedure, with bulk data moved by RDMA as {@code shape} says.
	 * @param program the program
	 * @param version its version
	 * @param procedure the procedure
	 * @param arguments writes the arguments
	 * @param shape DDP-eligible argument items, Write chunks to offer, size limits
	 * @param timeout how long to wait for the reply
	 * @return completes with the reply (release it after decoding the results), or fails with
	 * an {@link RpcCallException}; a call the arguments or shape make impossible to send fails
	 * with {@link IllegalArgumentException}. Buffers of {@link CallChunks#registeredArguments()}
	 * must stay leased and unchanged until this future completes.
	 */
	public CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments,
			CallChunks shape, Duration timeout) {
		FutureReply future = new FutureReply();
		send(program, version, procedure, arguments, shape, timeout, future, future);
		return future;
	}

	/**
	 * Calls a procedure on this one connection; a lost connection fails the call, retried or
	 * not (retrying on another connection is a pool's business).
	 */
	@Override
	public CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments,
			CallChunks shape, boolean idempotent, Duration timeout) {
		return call(program, version, procedure, arguments, shape, timeout);
	}

	/**
	 * Calls a procedure on this one connection, telling {@code callback} how it ends; with a
	 * call that fits inline and a credit free, nothing is allocated for the call beyond the
	 * transport's description of it and the {@link ReceivedReply}.
	 */
	@Override
	public void call(int program, int version, int procedure, CallBody arguments, CallChunks shape, boolean idempotent,
			Duration timeout, ReplyCallback callback) {
		send(program, version, procedure, arguments, shape, timeout, Objects.requireNonNull(callback, "callback"), null);
	}

	private void send(int program, int version, int procedure, CallBody arguments, CallChunks shape, Duration timeout,
			ReplyCallback callback, FutureReply future) {
		if (arguments == null || shape == null) {
			callback.failed(new NullPointerException((arguments == null) ? "arguments" : "shape"));
			return;
		}
		ClientCall call;
		try {
			call = this.pending.register(program, version, procedure, arguments.procedureName(), timeout, callback);
		}
		catch (RuntimeException ex) {
			callback.failed(ex);
			return;
		}
		if (future != null) {
			future.track(call);
		}
		CallBuffer buffer = CallBuffer.acquire(shape.maxCallSize());
		try {
			OutboundCall outbound;
			try {
				outbound = encode(call.xid(), program, version, procedure, arguments, shape, buffer);
			}
			catch (RuntimeException ex) {
				call.failed(ex);
				return;
			}
			try {
				// The transport copies the message before returning, so the buffer is free after.
				this.transport.call(outbound, call);
			}
			catch (RuntimeException ex) {
				call.failed(ex);
			}
		}
		finally {
			if (buffer != null) {
				buffer.release();
			}
		}
	}

	/**
	 * Closes this connection once {@code timeouts} calls in a row have timed out with no reply
	 * from the server in between, on time or late: the connection is up but the server no
	 * longer answers (its process stalled, say). Its pending calls then fail with
	 * {@link ConnectionLostException} caused by {@link ServerNotAnsweringException}. A pool
	 * does this to each connection it opens ({@link RpcClientPool.Config#unansweredTimeouts()})
	 * and opens another; a lone client stays closed.
	 * @param timeouts timeouts in a row; 0 never closes (the default for a client of its own)
	 * @return this client
	 */
	public RpcClient closeWhenUnanswered(int timeouts) {
		this.pending.whenUnanswered(timeouts, (inARow) -> {
			connectionLost(new ServerNotAnsweringException(this.endpoint, inARow));
			close();
		});
		return this;
	}

	private void connectionLost(Throwable cause) {
		this.pending.failAll(cause);
	}

	private static OutboundCall encode(int xid, int program, int version, int procedure, CallBody arguments,
			CallChunks shape, CallBuffer buffer) {
		XdrEncoder encoder = (buffer != null) ? buffer.encoder(shape.maxCallSize())
				: new XdrEncoder(ByteBuffer.allocate(shape.maxCallSize()));
		OpaqueAuth credential = arguments.credential();
		if (credential == AuthNone.INSTANCE) {
			RpcMessageCodec.encodeCall(xid, program, version, procedure, encoder);
		}
		else {
			// RFC 5531 §8.2: the call carries the credential and the verifier its flavor computes
			// over the header (AUTH_NONE but for RPCSEC_GSS, RFC 2203 §5.3.1).
			int start = encoder.position();
			RpcMessageCodec.encodeCallThroughCredential(xid, program, version, procedure, credential, encoder);
			ByteBuffer header = encoder.buffer().duplicate();
			header.limit(encoder.position()).position(start);
			RpcMessageCodec.encodeAuth(arguments.verifier(header.slice().asReadOnlyBuffer()), encoder);
		}
		int header = encoder.position();
		arguments.write(encoder);
		// Indexed loops, as in OutboundCall: no iterator per call for the JIT to remove or not.
		List<DdpRange> argumentItems = shape.argumentItems();
		List<DdpRange> items = argumentItems.isEmpty() ? List.of() : new ArrayList<>(argumentItems.size());
		for (int i = 0; i < argumentItems.size(); i++) {
			DdpRange item = argumentItems.get(i);
			items.add(new DdpRange(header + item.offset(), item.length()));
		}
		List<RegisteredItem> registeredArguments = shape.registeredArguments();
		List<RegisteredItem> registered = registeredArguments.isEmpty() ? List.of()
				: new ArrayList<>(registeredArguments.size());
		for (int i = 0; i < registeredArguments.size(); i++) {
			RegisteredItem item = registeredArguments.get(i);
			registered.add(new RegisteredItem(header + item.offset(), item.buffer(), item.length()));
		}
		return new OutboundCall(encoder.buffer().flip(), items, shape.writeChunkSizes(), shape.maxReplySize(), registered,
				arguments.traceContext());
	}

	/** @return the server, as named in exceptions */
	@Override
	public String endpoint() {
		return this.endpoint;
	}

	/** @return whether the connection is up */
	public boolean isOpen() {
		return this.transport.isOpen();
	}

	/** @return completes when the connection is down */
	public CompletableFuture<Void> closeFuture() {
		return this.transport.closeFuture();
	}

	/** @return the number of calls awaiting replies */
	public int pendingCalls() {
		return this.pending.size();
	}

	/** @return the transport under this client */
	public RpcTransport transport() {
		return this.transport;
	}

	/** Closes the connection; pending calls fail with {@link ConnectionLostException}. */
	@Override
	public void close() {
		this.transport.close();
	}

}
