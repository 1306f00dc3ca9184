package io.rpcrdma.verbs.siw.wire;

/**
 * RDMAP message opcodes (RFC 5040 §4.2, §4.3) with the DDP buffer model and queue each uses.
 * <p>
 * RDMA Write and Read Response are tagged DDP messages; everything else is untagged, on queue
 * 0 (the Sends), 1 (Read Request) or 2 (Terminate) per RFC 5040 §5.1.
 */
public enum RdmapOpcode {

	/** RDMA Write: tagged, places data at the data sink's STag and TO. */
	RDMA_WRITE(0x0, true, -1),

	/** RDMA Read Request: untagged on queue 1, carries no payload beyond its RDMAP header. */
	RDMA_READ_REQUEST(0x1, false, 1),

	/** RDMA Read Response: tagged, places the requested data at the data sink. */
	RDMA_READ_RESPONSE(0x2, true, -1),

	/** Send: untagged on queue 0. */
	SEND(0x3, false, 0),

	/** Send with Invalidate: a Send whose RsvdULP field carries the STag to invalidate. */
	SEND_WITH_INVALIDATE(0x4, false, 0),

	/** Send with Solicited Event. */
	SEND_WITH_SE(0x5, false, 0),

	/** Send with Solicited Event and Invalidate. */
	SEND_WITH_SE_AND_INVALIDATE(0x6, false, 0),

	/** Terminate: untagged on queue 2, reports an error before the stream closes. */
	TERMINATE(0x7, false, 2);

	/** Highest opcode RFC 5040 defines; 8 and up are for extensions and are refused. */
	public static final int MAX_CODE = 0x7;

	private static final RdmapOpcode[] BY_CODE = values();

	private final int code;

	private final boolean tagged;

	private final int queueNumber;

	RdmapOpcode(int code, boolean tagged, int queueNumber) {
		this.code = code;
		this.tagged = tagged;
		this.queueNumber = queueNumber;
	}

	/** @return the 4-bit opcode */
	public int code() {
		return this.code;
	}

	/** @return true for the tagged buffer model (RDMA Write, Read Response) */
	public boolean tagged() {
		return this.tagged;
	}

	/** @return the untagged DDP queue number, or -1 for tagged opcodes */
	public int queueNumber() {
		return this.queueNumber;
	}

	/** @return true when RsvdULP[8:39] carries the STag to invalidate (RFC 5040 §4.1) */
	public boolean invalidates() {
		return this == SEND_WITH_INVALIDATE || this == SEND_WITH_SE_AND_INVALIDATE;
	}

	/** @return true for the four Send variants */
	public boolean isSend() {
		return this.queueNumber == 0;
	}

	/**
	 * @param code a 4-bit opcode from the wire
	 * @return the opcode, or null when RFC 5040 defines none for the value (no allocation)
	 */
	public static RdmapOpcode ofCode(int code) {
		return (code >= 0 && code <= MAX_CODE) ? BY_CODE[code] : null;
	}

}
