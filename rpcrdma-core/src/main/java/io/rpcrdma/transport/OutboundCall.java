package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import io.rpcrdma.protocol.TraceContext;

import io.rpcrdma.xdr.XdrEncoder;

/**
 * An encoded RPC call for the transport to convey: the whole RPC message from its XID on,
 * which DDP-eligible argument items may go in Read chunks, the Write chunks to offer for
 * DDP-eligible results, and how large the reply may grow.
 *
 * @param message the encoded RPC call between position and limit; the transport copies it
 * before {@link RpcTransport#call} returns, so the caller may reuse it at once
 * @param readChunkItems DDP-eligible argument items in increasing, non-overlapping order;
 * the transport moves them into Read chunks (RFC 8166 §3.4.5); empty for none
 * @param writeChunkSizes the capacity of each Write chunk to offer for a DDP-eligible result
 * (RFC 8166 §3.4.6), in result order; empty for none
 * @param maxReplySize the largest reply the upper layer expects, without Write chunk data;
 * when it exceeds what fits inline a Reply chunk of this size is offered (RFC 8166 §3.5.4)
 * @param registeredItems DDP-eligible argument items whose data is in the caller's registered
 * buffers, not in {@code message}: each is advertised as a Read chunk read straight from the
 * caller's memory (zero copy); offsets increasing, outside every {@code readChunkItems} range;
 * the buffers must stay leased and unchanged until the call completes. Empty for none
 * @param traceContext the caller's trace context, offered to a Version Two responder with the
 * {@link io.rpcrdma.protocol.TraceContextOption} optional feature; {@code null} when nothing traces the call (then
 * nothing is offered and the call costs what it did before)
 */
public record OutboundCall(ByteBuffer message, List<DdpRange> readChunkItems, List<Integer> writeChunkSizes,
		int maxReplySize, List<RegisteredItem> registeredItems, TraceContext traceContext) {

	/**
	 * Validates the call.
	 */
	public OutboundCall {
		Objects.requireNonNull(message, "message");
		readChunkItems = List.copyOf(readChunkItems);
		writeChunkSizes = List.copyOf(writeChunkSizes);
		if (message.remaining() < 8) {
			throw new IllegalArgumentException("An RPC call has at least an XID and a message type, got "
					+ message.remaining() + " bytes");
		}
		// Indexed loops: an iterator per list and call is garbage whenever the JIT's escape
		// analysis does not remove it, which it sometimes does not (docs/performance.md).
		int end = 0;
		for (int i = 0; i < readChunkItems.size(); i++) {
			DdpRange item = readChunkItems.get(i);
			if (item.offset() < end || item.paddedEnd() > message.remaining() || item.offset() < 8) {
				throw new IllegalArgumentException("DDP-eligible item " + item + " overlaps another, precedes the RPC"
						+ " header or exceeds the " + message.remaining() + "-byte message");
			}
			end = item.paddedEnd();
		}
		for (int i = 0; i < writeChunkSizes.size(); i++) {
			Integer size = writeChunkSizes.get(i);
			if (size == null || size < 0) {
				throw new IllegalArgumentException("Write chunk sizes must be non-negative, got " + writeChunkSizes);
			}
		}
		if (maxReplySize < 0) {
			throw new IllegalArgumentException("maxReplySize must be non-negative, got " + maxReplySize);
		}
		registeredItems = List.copyOf(registeredItems);
		int previous = -1;
		for (int i = 0; i < registeredItems.size(); i++) {
			RegisteredItem item = registeredItems.get(i);
			if (item.offset() <= previous || item.offset() < 8 || item.offset() > message.remaining()) {
				throw new IllegalArgumentException("Registered item at offset " + item.offset() + " repeats or precedes"
						+ " another, precedes the RPC header or lies beyond the " + message.remaining() + "-byte message");
			}
			previous = item.offset();
			for (int j = 0; j < readChunkItems.size(); j++) {
				DdpRange range = readChunkItems.get(j);
				if (item.offset() >= range.offset() && item.offset() < Math.max(range.paddedEnd(), range.offset() + 1)) {
					throw new IllegalArgumentException("Registered item at offset " + item.offset()
							+ " lies inside DDP-eligible item " + range);
				}
			}
		}
	}

	/**
	 * A call that carries no trace context.
	 * @param message the encoded RPC call
	 * @param readChunkItems DDP-eligible argument items
	 * @param writeChunkSizes Write chunk capacities to offer
	 * @param maxReplySize the largest expected reply
	 * @param registeredItems items read straight from the caller's registered buffers
	 */
	public OutboundCall(ByteBuffer message, List<DdpRange> readChunkItems, List<Integer> writeChunkSizes,
			int maxReplySize, List<RegisteredItem> registeredItems) {
		this(message, readChunkItems, writeChunkSizes, maxReplySize, registeredItems, null);
	}

	/**
	 * A call whose DDP-eligible items are all in {@code message}.
	 * @param message the encoded RPC call
	 * @param readChunkItems DDP-eligible argument items
	 * @param writeChunkSizes Write chunk capacities to offer
	 * @param maxReplySize the largest expected reply
	 */
	public OutboundCall(ByteBuffer message, List<DdpRange> readChunkItems, List<Integer> writeChunkSizes,
			int maxReplySize) {
		this(message, readChunkItems, writeChunkSizes, maxReplySize, List.of());
	}

	/**
	 * A call without chunks whose reply is expected to fit inline.
	 * @param message the encoded call
	 * @return the call
	 */
	public static OutboundCall inline(ByteBuffer message) {
		return new OutboundCall(message, List.of(), List.of(), 0);
	}

	/**
	 * A call encoded by a writer callback, for RPC layers that encode straight into an
	 * {@link XdrEncoder} instead of handing over a finished buffer.
	 * @param maxLength the most bytes the writer produces
	 * @param writer encodes the whole RPC call, XID first
	 * @param readChunkItems DDP-eligible argument items, offsets relative to the call's start
	 * @param writeChunkSizes Write chunk capacities to offer
	 * @param maxReplySize the largest expected reply
	 * @return the call
	 */
	public static OutboundCall write(int maxLength, Consumer<XdrEncoder> writer, List<DdpRange> readChunkItems,
			List<Integer> writeChunkSizes, int maxReplySize) {
		ByteBuffer buffer = ByteBuffer.allocate(maxLength);
		writer.accept(new XdrEncoder(buffer));
		return new OutboundCall(buffer.flip(), readChunkItems, writeChunkSizes, maxReplySize);
	}

	/** @return the call's XID, its first word */
	public int xid() {
		return this.message.getInt(this.message.position());
	}

}
