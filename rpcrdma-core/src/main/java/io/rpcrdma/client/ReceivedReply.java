package io.rpcrdma.client;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrDecoder;

/**
 * A successful reply as the transport received it: the header, and the procedure results
 * read in place from the receive buffer. The buffer is lent: decode the results, then
 * {@link #release()} it (exactly once; later calls have no effect).
 */
public final class ReceivedReply {

	private final RpcReply header;

	private final XdrDecoder results;

	private final Runnable releaser;

	private final AtomicBoolean released = new AtomicBoolean();

	/**
	 * @param header the reply header, MSG_ACCEPTED SUCCESS
	 * @param results positioned at the procedure results
	 * @param releaser gives the receive buffer back to the transport
	 */
	public ReceivedReply(RpcReply header, XdrDecoder results, Runnable releaser) {
		this.header = Objects.requireNonNull(header, "header");
		this.results = Objects.requireNonNull(results, "results");
		this.releaser = Objects.requireNonNull(releaser, "releaser");
	}

	/**
	 * @return the reply header
	 */
	public RpcReply header() {
		return this.header;
	}

	/**
	 * @return the procedure results, valid until {@link #release()}
	 */
	public XdrDecoder results() {
		return this.results;
	}

	/**
	 * Gives the receive buffer back; the results may not be read afterwards.
	 */
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			this.releaser.run();
		}
	}

	/**
	 * @return whether the buffer was given back
	 */
	public boolean isReleased() {
		return this.released.get();
	}

}
