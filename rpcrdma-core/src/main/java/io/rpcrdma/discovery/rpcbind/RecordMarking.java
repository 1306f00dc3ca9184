package io.rpcrdma.discovery.rpcbind;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * ONC RPC record marking over a byte stream (RFC 5531 §11): a record is one or more
 * fragments, each a four-byte header (the high bit set on the last fragment, the low 31 bits
 * the fragment's length) followed by that many bytes.
 * <p>
 * A record is bounded by a maximum the caller gives, checked against each header before its
 * data is read, and the data is collected as it actually arrives rather than into an array
 * sized from the header, so a peer announcing a huge fragment and sending little costs little.
 */
final class RecordMarking {

	/** RFC 5531 §11: the last-fragment bit of a fragment header. */
	static final int LAST_FRAGMENT = 0x8000_0000;

	private static final int CHUNK = 4096;

	private RecordMarking() {
	}

	/**
	 * Writes a message as one record of a single fragment.
	 * @param message the message, from position to limit (not moved)
	 * @param out the stream
	 * @throws IOException if writing fails
	 */
	static void write(ByteBuffer message, OutputStream out) throws IOException {
		ByteBuffer bytes = message.duplicate();
		byte[] record = new byte[4 + bytes.remaining()];
		ByteBuffer.wrap(record).putInt(LAST_FRAGMENT | bytes.remaining()).put(bytes);
		out.write(record);
		out.flush();
	}

	/**
	 * Reads one record.
	 * @param in the stream; its blocking reads are bounded by the caller's socket timeout
	 * @param maxLength the largest record accepted, in bytes
	 * @return the record's bytes
	 * @throws RecordTooLargeException if the fragments announce more than {@code maxLength}
	 * @throws EOFException if the stream ends inside a record
	 * @throws IOException if reading fails or times out
	 */
	static ByteBuffer read(InputStream in, int maxLength) throws IOException {
		ByteArrayOutputStream record = new ByteArrayOutputStream(Math.min(maxLength, CHUNK));
		byte[] chunk = new byte[CHUNK];
		byte[] header = new byte[4];
		boolean last = false;
		while (!last) {
			readFully(in, header, 4, "a fragment header");
			int word = ByteBuffer.wrap(header).getInt();
			last = (word & LAST_FRAGMENT) != 0;
			long length = word & 0x7FFF_FFFFL;
			if (record.size() + length > maxLength) {
				throw new RecordTooLargeException(record.size() + length, maxLength);
			}
			// Empty non-last fragments are legal; the caller's deadline bounds a peer that
			// sends nothing else.
			for (long left = length; left > 0;) {
				int n = in.read(chunk, 0, (int) Math.min(chunk.length, left));
				if (n < 0) {
					throw new EOFException("the connection closed " + left + " bytes before the end of a " + length
							+ "-byte fragment");
				}
				record.write(chunk, 0, n);
				left -= n;
			}
		}
		return ByteBuffer.wrap(record.toByteArray());
	}

	private static void readFully(InputStream in, byte[] into, int length, String what) throws IOException {
		for (int read = 0; read < length;) {
			int n = in.read(into, read, length - read);
			if (n < 0) {
				throw new EOFException("the connection closed " + ((read == 0) ? "before " : "inside ") + what);
			}
			read += n;
		}
	}

	/** The record's fragments announce more bytes than the reader accepts. */
	static final class RecordTooLargeException extends IOException {

		private static final long serialVersionUID = 1L;

		RecordTooLargeException(long announced, int max) {
			super("the record's fragments announce at least " + announced + " bytes, more than the " + max
					+ " this client accepts (RFC 5531 §11 record marking)");
		}

	}

}
