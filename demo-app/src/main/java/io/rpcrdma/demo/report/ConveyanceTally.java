package io.rpcrdma.demo.report;

/**
 * How calls and replies travelled, summed from the transport's
 * {@link io.rpcrdma.transport.TransportStats} counters of the connections involved, and how
 * often a call had to wait for a credit (RFC 8166 §3.3.1).
 *
 * @param callsInline calls the client sent as RDMA_MSG with an inline part, chunked ones
 * included (RFC 8166 §3.5.1)
 * @param readChunks Read chunks the client advertised for bulk arguments (puts; §3.4.5)
 * @param repliesInline replies the server sent as RDMA_MSG with an inline part, or {@code -1} when the server is in
 * another process
 * @param writeChunks Write chunks the server filled with bulk results (gets; §3.4.6), or
 * {@code -1} when the server is in another process
 * @param replyChunks Reply chunks the server filled with long replies (§3.5.4), or {@code -1}
 * when the server is in another process
 * @param creditsWaited calls that found no credit free and waited for one
 */
public record ConveyanceTally(long callsInline, long readChunks, long repliesInline, long writeChunks,
		long replyChunks, long creditsWaited) {

	/** Nothing counted. */
	public static final ConveyanceTally ZERO = new ConveyanceTally(0, 0, 0, 0, 0, 0);

	/** @return whether the server's counters were available */
	public boolean serverSeen() {
		return this.writeChunks >= 0;
	}

	/**
	 * @param earlier a snapshot taken before
	 * @return what was counted since
	 */
	public ConveyanceTally since(ConveyanceTally earlier) {
		return new ConveyanceTally(this.callsInline - earlier.callsInline, this.readChunks - earlier.readChunks,
				serverDelta(this.repliesInline, earlier.repliesInline), serverDelta(this.writeChunks, earlier.writeChunks),
				serverDelta(this.replyChunks, earlier.replyChunks), this.creditsWaited - earlier.creditsWaited);
	}

	private static long serverDelta(long now, long before) {
		return (now < 0) ? -1 : now - Math.max(0, before);
	}

}
