package io.rpcrdma.transport;

import java.util.Objects;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.RegisteredBuffer;

/**
 * A DDP-eligible argument item whose data already lies in registered memory the caller
 * leased (RFC 8166 §6): the transport advertises the caller's buffer itself as the Read chunk
 * (its STag, address and the item's length), so the data is read by the responder's RDMA Read
 * straight from that memory, never copied. The encoded message holds only the item's XDR
 * length word; the data and its XDR roundup are absent from it.
 * <p>
 * Ownership: the buffer stays the caller's. It must stay leased and its bytes unchanged until
 * the call's future completes (the responder may read it until it has replied), and the
 * caller releases it afterwards, which retires its STag (RFC 8166 §8). Until then the
 * responder can read it: advertise only buffers leased for this purpose.
 *
 * @param offset where the data would start in the encoded message: just after its length
 * word, a multiple of four; the Read chunk's XDR position counts the data of every registered
 * item before it (RFC 8166 §3.4.4: positions are in the XDR stream with the items in it)
 * @param buffer the caller's buffer, leased with {@link BufferRole#READ_CHUNK} (registered
 * for remote read); the data starts at its first byte
 * @param length the data's length, without XDR padding, at most {@code buffer.length()}
 */
public record RegisteredItem(int offset, RegisteredBuffer buffer, int length) {

	/** Validates the item. */
	public RegisteredItem {
		Objects.requireNonNull(buffer, "buffer");
		if (offset < 0 || (offset & 3) != 0) {
			throw new IllegalArgumentException("A registered item starts at a non-negative multiple of four, got "
					+ offset + " (RFC 8166 §3.4.4: chunks begin at XDR alignment)");
		}
		if (buffer.role() != BufferRole.READ_CHUNK) {
			throw new IllegalArgumentException("A registered item's buffer must be leased with BufferRole.READ_CHUNK, so"
					+ " that its memory region of its own allows remote read; got a " + buffer.role() + " buffer");
		}
		if (!buffer.isLeased()) {
			throw new IllegalArgumentException("The registered item's buffer " + buffer + " was released");
		}
		if (length < 0 || length > buffer.length()) {
			throw new IllegalArgumentException("A registered item's length must be between 0 and its buffer's "
					+ buffer.length() + " bytes, got " + length);
		}
	}

	/** @return the length with XDR roundup (RFC 5666 §3.7): what the item adds to the XDR stream */
	public int paddedLength() {
		return (this.length + 3) & ~3;
	}

}
