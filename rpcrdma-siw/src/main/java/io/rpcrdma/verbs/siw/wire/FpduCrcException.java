package io.rpcrdma.verbs.siw.wire;

/**
 * The CRC32c trailer of an FPDU (RFC 5044 §4.4) does not match the FPDU's bytes. Values are
 * shown as CRC32c register values, i.e. what {@link java.util.zip.CRC32C#getValue()} returns;
 * on the wire they travel in little-endian byte order, as in iSCSI and Linux siw.
 */
public final class FpduCrcException extends FpduFramingException {

	private static final long serialVersionUID = 1L;

	private final int received;

	private final int computed;

	public FpduCrcException(int received, int computed) {
		super(TerminateError.MPA_CRC_ERROR, String.format(
				"MPA CRC32c mismatch: FPDU carries 0x%08x but its bytes give 0x%08x; data was corrupted in transit or the peer computes CRC differently",
				received, computed));
		this.received = received;
		this.computed = computed;
	}

	/** @return the CRC32c value the FPDU carries */
	public int received() {
		return this.received;
	}

	/** @return the CRC32c value of the FPDU's bytes */
	public int computed() {
		return this.computed;
	}

}
