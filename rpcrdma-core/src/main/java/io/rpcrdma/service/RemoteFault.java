package io.rpcrdma.service;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * An exception a service method threw, as it travels back to the caller: the second arm of
 * every procedure's result union (see {@link ProcedureResults}), in XDR
 * <pre>
 * struct rpcrdma_fault {
 *     int    code;              // stable error code (RpcFault, or derived from the type)
 *     string type&lt;1024&gt;;       // the exception's fully qualified class name
 *     string message&lt;4096&gt;;    // its message, "" for none
 * };
 * </pre>
 * The lengths are bounded on both sides: a longer message is cut on encoding, and a decoder
 * refuses anything longer before allocating it.
 *
 * @param code the stable error code
 * @param type the exception's class name
 * @param message its message, empty for none
 */
public record RemoteFault(int code, String type, String message) {

	/** The longest class name carried (RFC 4506 §4.11 bound of {@code type}). */
	public static final int MAX_TYPE_BYTES = 1024;

	/** The longest message carried (bound of {@code message}). */
	public static final int MAX_MESSAGE_BYTES = 4096;

	public RemoteFault {
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(message, "message");
	}

	/**
	 * Describes an exception thrown by a service method.
	 * @param failure what the method threw
	 * @return its fault, the message cut to {@link #MAX_MESSAGE_BYTES} UTF-8 bytes
	 */
	public static RemoteFault of(Throwable failure) {
		Class<?> type = failure.getClass();
		String message = (failure.getMessage() != null) ? failure.getMessage() : "";
		return new RemoteFault(codeOf(type), truncate(type.getName(), MAX_TYPE_BYTES), truncate(message, MAX_MESSAGE_BYTES));
	}

	/**
	 * The stable error code of an exception type: {@link RpcFault#code()} when present, else
	 * the 32-bit FNV-1a hash of the class name (never 0).
	 * @param type an exception class
	 * @return its code
	 */
	public static int codeOf(Class<?> type) {
		RpcFault declared = type.getAnnotation(RpcFault.class);
		if (declared != null) {
			return declared.code();
		}
		int hash = ProgramNumbers.fnv1a32(type.getName().getBytes(StandardCharsets.UTF_8));
		return (hash != 0) ? hash : 1;
	}

	/**
	 * Shortens the fault to fit a reply with little room: the message first, then the type name.
	 * @param maxEncodedSize the most bytes {@link #encode} may write, at least 12
	 * @return this fault if it fits, else a shortened copy
	 */
	public RemoteFault fitting(int maxEncodedSize) {
		if (encodedSize() <= maxEncodedSize) {
			return this;
		}
		int typeRoom = Math.max(0, maxEncodedSize - 12) & ~3;
		String shortType = truncate(this.type, typeRoom);
		int messageRoom = Math.max(0, maxEncodedSize - 12 - ((shortType.getBytes(StandardCharsets.UTF_8).length + 3) & ~3)) & ~3;
		return new RemoteFault(this.code, shortType, truncate(this.message, messageRoom));
	}

	/**
	 * @param out where the fault goes
	 */
	public void encode(XdrEncoder out) {
		out.writeInt(this.code);
		out.writeString(this.type);
		out.writeString(this.message);
	}

	/**
	 * @param in positioned at a fault
	 * @return the fault
	 * @throws io.rpcrdma.xdr.XdrException if it is malformed or exceeds the bounds
	 */
	public static RemoteFault decode(XdrDecoder in) {
		int code = in.readInt();
		String type = in.readString(MAX_TYPE_BYTES);
		String message = in.readString(MAX_MESSAGE_BYTES);
		return new RemoteFault(code, type, message);
	}

	/**
	 * @return how many bytes {@link #encode} writes
	 */
	public int encodedSize() {
		return 4 + stringSize(this.type) + stringSize(this.message);
	}

	private static int stringSize(String value) {
		return 4 + ((value.getBytes(StandardCharsets.UTF_8).length + 3) & ~3);
	}

	/** Makes a string valid UTF-8 of at most {@code maxBytes}, without splitting a character. */
	static String truncate(String value, int maxBytes) {
		byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
		if (bytes.length <= maxBytes) {
			// Re-decoded so that an unpaired surrogate (which XDR's UTF-8 string refuses)
			// becomes a replacement character instead of failing the reply.
			return new String(bytes, StandardCharsets.UTF_8);
		}
		int end = maxBytes;
		while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
			end--;
		}
		return new String(bytes, 0, end, StandardCharsets.UTF_8);
	}

}
