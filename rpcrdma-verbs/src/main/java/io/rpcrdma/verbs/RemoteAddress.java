package io.rpcrdma.verbs;

/**
 * A location in a peer's registered memory: the target of an RDMA Write or the source of
 * an RDMA Read (RFC 5666 §2, RFC 5040 tagged buffer model), as the verbs
 * {@code wr.rdma.remote_addr} / {@code wr.rdma.rkey} pair.
 *
 * @param address the tagged offset (peer virtual address), an unsigned 64-bit value
 * @param stag the peer's steering tag (rkey)
 */
public record RemoteAddress(long address, int stag) {

	/**
	 * The address {@code delta} bytes further on, with the same STag.
	 * @param delta the number of bytes to advance
	 * @return the advanced address
	 */
	public RemoteAddress plus(long delta) {
		return new RemoteAddress(this.address + delta, this.stag);
	}

	@Override
	public String toString() {
		return "RemoteAddress[stag=0x" + Integer.toHexString(this.stag) + ", address=0x"
				+ Long.toHexString(this.address) + "]";
	}

}
