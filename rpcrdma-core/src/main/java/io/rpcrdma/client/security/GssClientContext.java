package io.rpcrdma.client.security;

import java.util.concurrent.atomic.AtomicInteger;

import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssSession;

/**
 * One established RPCSEC_GSS context (RFC 2203 §5.2.3.1): its GSS session, handle, window
 * and next sequence number (§5.3.3.1).
 */
final class GssClientContext {

	final GssSession session;

	final byte[] handle;

	final int window;

	/** The program and version whose NULL procedure created it, and will destroy it. */
	final int program;

	final int version;

	/** RFC 2203 §5.3.3.1: numbers from 0 up to MAXSEQ; every transmission takes a new one. */
	private final AtomicInteger sequence = new AtomicInteger();

	GssClientContext(GssSession session, byte[] handle, int window, int program, int version) {
		this.session = session;
		this.handle = handle;
		this.window = window;
		this.program = program;
		this.version = version;
	}

	int nextSequence() {
		return this.sequence.getAndIncrement();
	}

	/**
	 * Whether a new context must replace this one before the next call: its sequence
	 * numbers ran out (RFC 2203 §5.3.3.1), or its service ticket ended, after which the
	 * server would answer RPCSEC_GSS_CTXPROBLEM (§5.3.3.3) and cost a round trip.
	 */
	boolean exhausted() {
		return Integer.toUnsignedLong(this.sequence.get()) >= Integer.toUnsignedLong(GssCredential.MAXSEQ)
				|| this.session.expired();
	}

}
