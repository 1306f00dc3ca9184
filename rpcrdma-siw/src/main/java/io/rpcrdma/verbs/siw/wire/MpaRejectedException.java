package io.rpcrdma.verbs.siw.wire;

/**
 * The responder answered our MPA Request with the Reject bit set (RFC 5044 §7.1). This is the
 * peer's decision, not a protocol error, so no Terminate error is attached; the reply's
 * private data often says why.
 */
public final class MpaRejectedException extends IwarpWireException {

	private static final long serialVersionUID = 1L;

	private final transient MpaFrame reply;

	public MpaRejectedException(MpaFrame reply) {
		super(null, "the MPA responder rejected the connection (Reject bit set, " + reply.privateData().length
				+ " bytes of private data)");
		this.reply = reply;
	}

	/** @return the reject reply, with the responder's private data */
	public MpaFrame reply() {
		return this.reply;
	}

}
