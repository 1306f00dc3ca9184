package io.rpcrdma.verbs.siw.wire;

/**
 * The first 16 bytes of a connection are not the MPA key we expected ("MPA ID Req Frame" from
 * an initiator, "MPA ID Rep Frame" from a responder; RFC 5044 §7.1). The peer does not speak
 * MPA, or speaks it in the wrong role.
 */
public final class MpaInvalidKeyException extends MpaFrameException {

	private static final long serialVersionUID = 1L;

	public MpaInvalidKeyException(MpaFrame.Kind expected, String received) {
		super("expected the MPA " + expected.name().toLowerCase(java.util.Locale.ROOT) + " key \""
				+ expected.keyText() + "\" but the peer sent " + received
				+ "; the peer is not an iWARP/MPA endpoint in the expected role");
	}

}
