package io.rpcrdma.verbs.siw.wire;

/**
 * The MPA frame carries a revision other than 1 (RFC 5044) or 2 (RFC 6581).
 */
public final class MpaUnsupportedRevisionException extends MpaFrameException {

	private static final long serialVersionUID = 1L;

	private final int revision;

	public MpaUnsupportedRevisionException(int revision) {
		super("MPA revision " + revision + " is not supported; only revision 1 (RFC 5044) and 2 (RFC 6581) are");
		this.revision = revision;
	}

	/** @return the revision the peer sent */
	public int revision() {
		return this.revision;
	}

}
