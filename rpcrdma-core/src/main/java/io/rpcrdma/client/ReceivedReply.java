package io.rpcrdma.client;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrInvalidValueException;

/**
 * A successful reply as the transport received it: the header, the procedure results read in
 * place from the receive buffer, and the data the responder placed in each Write chunk the
 * call offered (RFC 8166 §3.4.6). The buffers are lent: decode the results, then
 * {@link #release()} them (exactly once; later calls have no effect). After the release
 * nothing of the reply may be used: its memory serves the connection's next call.
 * <p>
 * A DDP-eligible result that went by Write chunk leaves only its XDR length word in the
 * results; its bytes are in {@link #writeChunk(int)}. {@link #readDdpOpaque(int, int)} reads
 * such an item wherever the responder put it.
 */
public final class ReceivedReply {

	private static final AtomicIntegerFieldUpdater<ReceivedReply> RELEASED = AtomicIntegerFieldUpdater
		.newUpdater(ReceivedReply.class, "released");

	/** The header, or {@code null} until asked for: the call path never needs it. */
	private RpcReply header;

	private final XdrDecoder results;

	private final List<ByteBuffer> writeChunks;

	/** The recycled call that lent the buffers, and gets them back. */
	private final ClientCall owner;

	/** The message and where it starts, to decode the header on demand. */
	private final ByteBuffer message;

	private final int start;

	private volatile int released;

	/**
	 * A reply on the call path, lent by a recycled call whose header was stepped over without
	 * being built.
	 */
	ReceivedReply(ClientCall owner, XdrDecoder results, List<ByteBuffer> writeChunks, ByteBuffer message, int start) {
		this.owner = owner;
		this.results = results;
		this.message = message;
		this.start = start;
		this.writeChunks = views(writeChunks);
	}

	/** A reply in memory of its own, whose release returns nothing. */
	private ReceivedReply(RpcReply header, XdrDecoder results) {
		this.owner = null;
		this.header = header;
		this.results = results;
		this.message = null;
		this.start = 0;
		this.writeChunks = List.of();
	}

	/**
	 * A reply whose results are held in memory of their own: what is left of a received reply
	 * once a security flavor took its body out of its protection (RFC 2203 §5.3.2.2,
	 * §5.3.2.3) and released the receive buffers. Its {@link #release()} returns nothing.
	 * @param header the reply header
	 * @param results the results, between position and limit
	 * @return the reply
	 */
	public static ReceivedReply detached(RpcReply header, ByteBuffer results) {
		return new ReceivedReply(java.util.Objects.requireNonNull(header, "header"), new XdrDecoder(results));
	}

	private static List<ByteBuffer> views(List<ByteBuffer> writeChunks) {
		if (writeChunks.isEmpty()) {
			return List.of();
		}
		List<ByteBuffer> views = new ArrayList<>(writeChunks.size());
		for (ByteBuffer chunk : writeChunks) {
			views.add(chunk.asReadOnlyBuffer());
		}
		return List.copyOf(views);
	}

	/**
	 * @return the reply header (decoded on first use on the call path, which does not need it);
	 * valid until {@link #release()}
	 */
	public RpcReply header() {
		RpcReply decoded = this.header;
		if (decoded == null) {
			decoded = RpcMessageCodec.decodeReply(new XdrDecoder(this.message.duplicate().position(this.start)));
			this.header = decoded;
		}
		return decoded;
	}

	/**
	 * @return the procedure results, valid until {@link #release()}
	 */
	public XdrDecoder results() {
		return this.results;
	}

	/**
	 * The data the responder placed in each Write chunk the call offered, in the order offered
	 * (RFC 8166 §3.4.6); a chunk the responder did not use is empty. Each is a read-only view
	 * valid until {@link #release()}.
	 * @return one buffer per Write chunk the reply returned; empty if none
	 */
	public List<ByteBuffer> writeChunks() {
		return this.writeChunks;
	}

	/**
	 * The data the responder placed in one Write chunk.
	 * @param index the chunk, in the order the call offered them
	 * @return a read-only view valid until {@link #release()}, its bytes between position and limit
	 * @throws IndexOutOfBoundsException if the reply returned no such chunk
	 */
	public ByteBuffer writeChunk(int index) {
		if (index < 0 || index >= this.writeChunks.size()) {
			throw new IndexOutOfBoundsException("The reply returned " + this.writeChunks.size()
					+ " Write chunks, so there is no Write chunk " + index
					+ "; offer Write chunks through CallChunks.writeChunkSizes");
		}
		return this.writeChunks.get(index).duplicate();
	}

	/**
	 * Reads a DDP-eligible variable-length opaque result (RFC 4506 §4.10) that may have gone
	 * by Write chunk: reads its XDR length word from the results, then takes the data from
	 * Write chunk {@code writeChunkIndex} if the responder placed it there, else from the
	 * results inline (a responder may leave a result inline when it fits, RFC 8166 §3.4.6).
	 * @param writeChunkIndex the Write chunk offered for this result
	 * @param maxLength the largest length accepted
	 * @return a view valid until {@link #release()}
	 * @throws io.rpcrdma.xdr.XdrException if the length exceeds {@code maxLength}, the results
	 * are truncated, or the Write chunk holds another number of bytes than the length word says
	 */
	public ByteBuffer readDdpOpaque(int writeChunkIndex, int maxLength) {
		int length = this.results.readLength("DDP-eligible opaque length", maxLength);
		if (writeChunkIndex >= 0 && writeChunkIndex < this.writeChunks.size()) {
			ByteBuffer placed = this.writeChunks.get(writeChunkIndex);
			if (placed.remaining() > 0) {
				if (placed.remaining() != length) {
					throw new XdrInvalidValueException("Write chunk " + writeChunkIndex + " holds " + placed.remaining()
							+ " bytes but the result's XDR length word says " + length
							+ " (RFC 8166 §3.4.6: the returned Write chunk length is the item's length)");
				}
				return placed.duplicate();
			}
		}
		return this.results.readFixedOpaque(length);
	}

	/**
	 * Takes the Write chunk buffers out of this reply: {@link #release()} then leaves them
	 * lent, so their data (a bulk result the transport placed by RDMA Write) may outlive the
	 * reply without a copy, until the returned action gives them back.
	 * @return gives the Write chunk buffers back, once; {@code null} if the reply holds no
	 * transport buffer for them (nothing was placed, or the reply was detached)
	 */
	public Runnable takeWriteChunks() {
		if (this.owner == null || this.released != 0) {
			return null;
		}
		return this.owner.takeChunks();
	}

	/**
	 * Gives the buffers back; neither the results nor the Write chunk data may be read
	 * afterwards.
	 */
	public void release() {
		if (RELEASED.compareAndSet(this, 0, 1) && this.owner != null) {
			this.owner.replyReleased();
		}
	}

	/**
	 * @return whether the buffer was given back
	 */
	public boolean isReleased() {
		return this.released != 0;
	}

}
