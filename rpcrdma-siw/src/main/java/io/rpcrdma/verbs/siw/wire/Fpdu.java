package io.rpcrdma.verbs.siw.wire;

import java.nio.ByteBuffer;

/**
 * One received FPDU as {@link FpduParser} found it: a reusable, mutable view over the receive
 * buffer (a flyweight), so that parsing allocates nothing.
 * <p>
 * The fields and the {@link #payload()} view describe the last FPDU parsed into this object and
 * stay valid until the next parse into it, or until the receive buffer's bytes are moved (for
 * example by {@link ByteBuffer#compact()}). Copy out with the record accessors
 * ({@link #taggedHeader()}, {@link #untaggedHeader()}, {@link #readRequest()},
 * {@link #terminate()}) when a value must outlive that.
 */
public final class Fpdu {

	private ByteBuffer source;

	private ByteBuffer view;

	private int start;

	private int ulpduLength;

	private int crc;

	private boolean tagged;

	private boolean last;

	private RdmapOpcode opcode;

	private int stag;

	private long taggedOffset;

	private int invalidateStag;

	private int queueNumber;

	private int msn;

	private int messageOffset;

	private int payloadOffset;

	private int payloadLength;

	void set(ByteBuffer source, int start, int ulpduLength, int crc, int ddpControl, RdmapOpcode opcode) {
		if (source != this.source) {
			this.source = source;
			this.view = source.duplicate();
		}
		this.start = start;
		this.ulpduLength = ulpduLength;
		this.crc = crc;
		this.tagged = opcode.tagged();
		this.last = (ddpControl & DdpControl.LAST) != 0;
		this.opcode = opcode;
		int header = start + Mpa.LENGTH_FIELD;
		if (this.tagged) {
			this.stag = Be.i32(source, header + 2);
			this.taggedOffset = Be.i64(source, header + 6);
			this.invalidateStag = 0;
			this.queueNumber = -1;
			this.msn = 0;
			this.messageOffset = 0;
			this.payloadOffset = header + TaggedHeader.LENGTH;
		}
		else {
			this.stag = 0;
			this.taggedOffset = 0;
			this.invalidateStag = Be.i32(source, header + 2);
			this.queueNumber = Be.i32(source, header + 6);
			this.msn = Be.i32(source, header + 10);
			this.messageOffset = Be.i32(source, header + 14);
			this.payloadOffset = header + UntaggedHeader.LENGTH;
		}
		this.payloadLength = header + ulpduLength - this.payloadOffset;
	}

	/** @return index of the FPDU's first byte (its ULPDU Length field) in the receive buffer */
	public int start() {
		return this.start;
	}

	/** @return the ULPDU Length field */
	public int ulpduLength() {
		return this.ulpduLength;
	}

	/** @return bytes the FPDU occupied in the stream, pad and CRC included */
	public int fpduLength() {
		return Mpa.fpduLength(this.ulpduLength);
	}

	/** @return the CRC field as a CRC32c value (0 when CRC is off) */
	public int crc() {
		return this.crc;
	}

	/** @return T: tagged buffer model */
	public boolean tagged() {
		return this.tagged;
	}

	/** @return L: last segment of its message */
	public boolean last() {
		return this.last;
	}

	/** @return the RDMAP opcode */
	public RdmapOpcode opcode() {
		return this.opcode;
	}

	/** @return data sink STag (tagged only) */
	public int stag() {
		return this.stag;
	}

	/** @return data sink tagged offset (tagged only) */
	public long taggedOffset() {
		return this.taggedOffset;
	}

	/** @return RsvdULP[8:39], the STag to invalidate for invalidating Sends (untagged only) */
	public int invalidateStag() {
		return this.invalidateStag;
	}

	/** @return queue number (untagged only, -1 for tagged) */
	public int queueNumber() {
		return this.queueNumber;
	}

	/** @return message sequence number (untagged only) */
	public int msn() {
		return this.msn;
	}

	/** @return message offset (untagged only) */
	public int messageOffset() {
		return this.messageOffset;
	}

	/**
	 * @return index of the payload's first byte in the receive buffer; for a Read Request the
	 * payload is its 28-byte RDMAP header, for a Terminate the Terminate body
	 */
	public int payloadOffset() {
		return this.payloadOffset;
	}

	/** @return payload bytes */
	public int payloadLength() {
		return this.payloadLength;
	}

	/**
	 * @return the payload as a view of the receive buffer (no copy), position at its first
	 * byte and limit after its last; the same view object is reused for every FPDU
	 */
	public ByteBuffer payload() {
		this.view.clear();
		return this.view.position(this.payloadOffset).limit(this.payloadOffset + this.payloadLength);
	}

	/** @return the receive buffer this FPDU lies in */
	public ByteBuffer source() {
		return this.source;
	}

	/** @return a copy of the header; only for tagged FPDUs */
	public TaggedHeader taggedHeader() {
		requireTagged(true);
		return new TaggedHeader(this.last, this.opcode, this.stag, this.taggedOffset);
	}

	/** @return a copy of the header; only for untagged FPDUs */
	public UntaggedHeader untaggedHeader() {
		requireTagged(false);
		return new UntaggedHeader(this.last, this.opcode, this.invalidateStag, this.queueNumber, this.msn,
				this.messageOffset);
	}

	/** @return the Read Request fields; only for Read Requests */
	public ReadRequest readRequest() {
		requireOpcode(RdmapOpcode.RDMA_READ_REQUEST);
		return ReadRequest.decode(this.source, this.payloadOffset);
	}

	/**
	 * @return the Terminate body; only for Terminates
	 * @throws RdmapHeaderException when the body's length does not match its M/D/R bits
	 */
	public TerminateMessage terminate() {
		requireOpcode(RdmapOpcode.TERMINATE);
		return TerminateMessage.decode(this.source, this.payloadOffset, this.payloadLength);
	}

	/** @return the Read Request's data sink STag (no allocation); only for Read Requests */
	public int readSinkStag() {
		requireOpcode(RdmapOpcode.RDMA_READ_REQUEST);
		return Be.i32(this.source, this.payloadOffset);
	}

	/** @return the Read Request's data sink tagged offset; only for Read Requests */
	public long readSinkTaggedOffset() {
		requireOpcode(RdmapOpcode.RDMA_READ_REQUEST);
		return Be.i64(this.source, this.payloadOffset + 4);
	}

	/** @return the Read Request's message size (unsigned 32 bits); only for Read Requests */
	public int readSize() {
		requireOpcode(RdmapOpcode.RDMA_READ_REQUEST);
		return Be.i32(this.source, this.payloadOffset + 12);
	}

	/** @return the Read Request's data source STag; only for Read Requests */
	public int readSourceStag() {
		requireOpcode(RdmapOpcode.RDMA_READ_REQUEST);
		return Be.i32(this.source, this.payloadOffset + 16);
	}

	/** @return the Read Request's data source tagged offset; only for Read Requests */
	public long readSourceTaggedOffset() {
		requireOpcode(RdmapOpcode.RDMA_READ_REQUEST);
		return Be.i64(this.source, this.payloadOffset + 20);
	}

	private void requireTagged(boolean wanted) {
		if (this.opcode == null || this.tagged != wanted) {
			throw new IllegalStateException("the FPDU is " + describe() + ", not " + (wanted ? "tagged" : "untagged"));
		}
	}

	private void requireOpcode(RdmapOpcode wanted) {
		if (this.opcode != wanted) {
			throw new IllegalStateException("the FPDU is " + describe() + ", not " + wanted);
		}
	}

	private String describe() {
		return this.opcode == null ? "empty" : this.opcode.toString();
	}

	@Override
	public String toString() {
		if (this.opcode == null) {
			return "Fpdu[empty]";
		}
		return "Fpdu[" + this.opcode + (this.last ? " L" : "") + ", ulpdu " + this.ulpduLength
				+ (this.tagged ? ", stag 0x" + Integer.toHexString(this.stag) + ", to 0x" + Long.toHexString(this.taggedOffset)
						: ", qn " + this.queueNumber + ", msn " + Integer.toUnsignedString(this.msn) + ", mo "
								+ Integer.toUnsignedString(this.messageOffset))
				+ ", payload " + this.payloadLength + "]";
	}

}
