package io.rpcrdma.service;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.MalformedReplyException;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RemoteCall;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.service.codec.XdrCodec;
import io.rpcrdma.transport.DdpRange;
import io.rpcrdma.transport.RegisteredItem;
import io.rpcrdma.xdr.XdrException;

/**
 * Calls one procedure of a service through an {@link RpcCaller}: encodes the arguments, sizes
 * the call and the room for the reply, decodes the {@link ProcedureResults}, and turns a
 * {@link RemoteFault} back into an exception. Built once per method when a proxy is created.
 */
final class ProcedureCaller {

	private static final Object[] NO_ARGUMENTS = {};

	private final ServiceDescriptor service;

	private final ProcedureDescriptor procedure;

	private final RpcCaller caller;

	private final ServiceClientOptions options;

	private final ServiceCallObserver observer;

	private final FaultTranslator faults;

	private final String name;

	/** The room made for the reply: the RPC reply header, the union's status and the result. */
	private final int maxReplySize;

	/** Bit {@code i} set when parameter {@code i} is DDP-eligible opaque data the call may place. */
	private final long bulkParameters;

	/** Whether the result is {@link Bulk}: a Write chunk of its {@code maxBytes} is offered. */
	private final boolean bulkResult;

	private final List<Integer> writeChunkSizes;

	private final Class<?> resultClass;

	/** Whether a bulk result placed by RDMA Write is lent to the caller rather than copied ({@link Bulk#lend()}). */
	private final boolean lendResult;

	private volatile CallChunks lastInlineShape;

	ProcedureCaller(ServiceDescriptor service, ProcedureDescriptor procedure, RpcCaller caller,
			ServiceClientOptions options, ServiceCallObserver observer, FaultTranslator faults) {
		this.service = service;
		this.procedure = procedure;
		this.caller = caller;
		this.options = options;
		this.observer = observer;
		this.faults = faults;
		this.name = service.name() + "." + procedure.name();
		long bound = ResultSizes.maxEncodedSize(procedure.resultCodec());
		// RFC 5531 §9 accepted reply with an AUTH_NONE verifier: xid, mtype, reply_stat,
		// verifier (flavor, length), accept_stat; then the union's status word.
		int header = 6 * 4 + 4;
		this.bulkResult = procedure.resultBulk().bulk();
		Bulk resultBulk = (procedure.method() != null) ? procedure.method().getAnnotation(Bulk.class) : null;
		this.lendResult = this.bulkResult && resultBulk != null && resultBulk.lend();
		this.writeChunkSizes = this.bulkResult ? List.of(procedure.resultBulk().maxBytes()) : List.of();
		this.resultClass = (procedure.resultType() instanceof Class<?> type) ? type : Object.class;
		if (this.bulkResult) {
			// Only the length word stays in the reply; a fault is cut to fit inline.
			this.maxReplySize = header + 4;
		}
		else {
			this.maxReplySize = (bound == ResultSizes.UNBOUNDED) ? options.maxReplySize()
					: (int) Math.min(options.maxReplySize(), header + bound);
		}
		long bulk = 0;
		List<ParameterDescriptor> parameters = procedure.parameters();
		for (int i = 0; i < parameters.size() && i < Long.SIZE; i++) {
			if (parameters.get(i).codec().ddpEligible()) {
				bulk |= 1L << i;
			}
		}
		this.bulkParameters = bulk;
	}

	/**
	 * Calls the procedure, for a method returning a future.
	 * @param arguments one value per parameter ({@code null} for none)
	 * @return completes with the method's result, or fails with the rethrown fault or an
	 * {@link io.rpcrdma.client.RpcCallException}
	 */
	CompletableFuture<Object> call(Object[] arguments) {
		return call(arguments, AuthNone.INSTANCE);
	}

	/**
	 * Calls the procedure with a credential, for a method returning a future.
	 * @param arguments one value per parameter ({@code null} for none)
	 * @param credential what the call carries (RFC 5531 §8.2)
	 * @return completes with the method's result, or fails
	 */
	CompletableFuture<Object> call(Object[] arguments, OpaqueAuth credential) {
		ServiceCall.Async call = new ServiceCall.Async();
		send(arguments, call, credential);
		return call.future;
	}

	/**
	 * Calls the procedure and waits, for a synchronous method: the thread's reused
	 * {@link ServiceCall.Waiting} is the call body and the callback, so nothing is allocated
	 * for the call here.
	 * @param arguments one value per parameter ({@code null} for none)
	 * @return the method's result
	 * @throws Throwable the rethrown fault, an {@link io.rpcrdma.client.RpcCallException}, or
	 * {@link InterruptedException} if the thread was interrupted while waiting
	 */
	Object callAndWait(Object[] arguments) throws Throwable {
		return callAndWait(arguments, AuthNone.INSTANCE);
	}

	/**
	 * Calls the procedure with a credential and waits, for a synchronous method.
	 * @param arguments one value per parameter ({@code null} for none)
	 * @param credential what the call carries (RFC 5531 §8.2)
	 * @return the method's result
	 * @throws Throwable as {@link #callAndWait(Object[])}
	 */
	Object callAndWait(Object[] arguments, OpaqueAuth credential) throws Throwable {
		ServiceCall.Waiting call = ServiceCall.Waiting.acquire();
		try {
			send(arguments, call, credential);
			return call.await();
		}
		finally {
			call.release();
		}
	}

	private void send(Object[] arguments, ServiceCall call, OpaqueAuth credential) {
		Object[] values = (arguments != null) ? arguments : NO_ARGUMENTS;
		ServiceCallObserver.Observation observation = this.observer.start(CallSide.CLIENT, this.service, this.procedure,
				this.caller.endpoint());
		CallChunks shape;
		long registered;
		Conveyance conveyance;
		try {
			registered = 0;
			if (this.bulkParameters != 0) {
				Placement placement = place(values);
				shape = placement.shape();
				registered = placement.registered();
			}
			else {
				shape = inlineShape(RpcClient.MAX_CALL_HEADER_SIZE + this.procedure.argumentsSize(values));
			}
			conveyance = conveyance(shape);
		}
		catch (RuntimeException ex) {
			observation.stop(CallOutcome.ERROR, Conveyance.INLINE, ex);
			call.fault(new IllegalArgumentException("Cannot encode the arguments of " + this.name + ": " + ex.getMessage(),
					ex));
			return;
		}
		call.start(this, values, registered, observation, conveyance, credential);
		this.caller.call(this.service.program(), this.service.version(), this.procedure.number(), call, shape,
				this.procedure.idempotent(), this.options.timeout(), call);
	}

	/** The shape of a call without bulk arguments; the last one is reused while the size repeats. */
	private CallChunks inlineShape(int maxCallSize) {
		CallChunks last = this.lastInlineShape;
		if (last != null && last.maxCallSize() == maxCallSize) {
			return last;
		}
		CallChunks shape = new CallChunks(maxCallSize, List.of(), this.writeChunkSizes, this.maxReplySize);
		this.lastInlineShape = shape;
		return shape;
	}

	/**
	 * Decides which arguments travel by RDMA (RFC 8166 §6): DDP-eligible values marked
	 * {@link Bulk} or at least {@link ServiceClientOptions#ddpThreshold()} long go in Read
	 * chunks; a {@link BulkData} in a registered buffer is read from that buffer (zero copy).
	 * Offsets count the arguments' XDR stream as {@link ServiceCallBody} writes it.
	 */
	private Placement place(Object[] values) {
		List<ParameterDescriptor> parameters = this.procedure.parameters();
		List<DdpRange> items = new ArrayList<>(2);
		List<RegisteredItem> registeredItems = List.of();
		long registered = 0;
		// The offset in the arguments' XDR stream as ServiceCallBody writes it: a registered
		// argument contributes only its length word.
		int offset = 0;
		for (int i = 0; i < values.length; i++) {
			@SuppressWarnings("unchecked")
			XdrCodec<Object> codec = (XdrCodec<Object>) parameters.get(i).codec();
			Object value = values[i];
			boolean placeable = i < Long.SIZE && (this.bulkParameters & (1L << i)) != 0 && value != null;
			if (placeable) {
				int length = BulkValues.length(value);
				BulkSpec bulk = parameters.get(i).bulk();
				if (value instanceof BulkData data && data.registered() != null) {
					if (bulk.bulk() && length > bulk.maxBytes()) {
						throw new IllegalArgumentException("argument " + i + " holds " + length
								+ " bytes, more than its @Bulk(maxBytes = " + bulk.maxBytes() + ")");
					}
					registered |= 1L << i;
					if (registeredItems.isEmpty()) {
						registeredItems = new ArrayList<>(1);
					}
					registeredItems.add(new RegisteredItem(offset + 4, data.registered(), length));
					offset += 4;
					continue;
				}
				if (length >= 0 && (bulk.bulk() || length >= this.options.ddpThreshold())) {
					items.add(new DdpRange(offset + 4, length));
				}
			}
			offset += codec.encodedSize(value);
		}
		return new Placement(new CallChunks(RpcClient.MAX_CALL_HEADER_SIZE + offset, items, this.writeChunkSizes,
				this.maxReplySize, registeredItems), registered);
	}

	private Conveyance conveyance(CallChunks shape) {
		return Conveyance.of(
				!shape.argumentItems().isEmpty() || !shape.registeredArguments().isEmpty(), !shape.writeChunkSizes().isEmpty());
	}

	/**
	 * Decodes a reply into the method's result, and releases it.
	 * @throws CompletionException with the rethrown fault, or a {@link MalformedReplyException}
	 */
	Object decode(ReceivedReply reply, ServiceCallObserver.Observation observation, Conveyance conveyance) {
		ProcedureResults.Outcome outcome;
		Object value = null;
		try {
			int status = reply.results().readInt();
			if (status != ProcedureResults.RESULT) {
				outcome = ProcedureResults.decodeAfterStatus(this.procedure, status, reply.results());
			}
			else if (this.bulkResult) {
				// The result's data may be in the Write chunk offered for it (RFC 8166 §3.4.6);
				// copied out, since the reply goes back to the transport below, or lent.
				ByteBuffer data = reply.readDdpOpaque(0, this.procedure.resultBulk().maxBytes());
				Runnable lent = (this.lendResult && placedByWrite(reply)) ? reply.takeWriteChunks() : null;
				value = (lent != null) ? BulkData.lent(data, lent) : BulkValues.copyAs(data, this.resultClass);
				outcome = null;
			}
			else {
				// The common case, read without building an outcome.
				value = this.procedure.decodeResult(reply.results());
				outcome = null;
			}
		}
		catch (XdrException | IllegalArgumentException | IndexOutOfBoundsException ex) {
			MalformedReplyException malformed = new MalformedReplyException(new RemoteCall(this.caller.endpoint(),
					reply.header().xid(), this.service.program(), this.service.version(), this.procedure.number(), this.name),
					ex);
			observation.stop(CallOutcome.ERROR, conveyance, malformed);
			throw new CompletionException(malformed);
		}
		finally {
			reply.release();
		}
		if (outcome instanceof ProcedureResults.Outcome.Faulted faulted) {
			Throwable rethrown = this.faults.translate(faulted.fault(), this.procedure.method(),
					this.name + " at " + this.caller.endpoint());
			observation.stop(CallOutcome.FAULT, conveyance, rethrown);
			throw new CompletionException(rethrown);
		}
		if (outcome != null) {
			value = ((ProcedureResults.Outcome.Returned) outcome).value();
		}
		observation.stop(CallOutcome.SUCCESS, conveyance, null);
		return value;
	}

	/** Whether the result's bytes are in the Write chunk offered for it, rather than inline. */
	private static boolean placedByWrite(ReceivedReply reply) {
		return !reply.writeChunks().isEmpty() && reply.writeChunk(0).remaining() > 0;
	}

	/** How one call's arguments travel, and which go from registered buffers. */
	private record Placement(CallChunks shape, long registered) {
	}

	/** @return the procedure called */
	ServiceDescriptor service() {
		return this.service;
	}

	String endpoint() {
		return this.caller.endpoint();
	}

	ProcedureDescriptor procedure() {
		return this.procedure;
	}

	/** @return "Service.method", as exceptions name it */
	String name() {
		return this.name;
	}

}
