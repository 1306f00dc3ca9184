package io.rpcrdma.client.security;

import java.nio.ByteBuffer;
import java.util.List;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssProcedure;
import io.rpcrdma.oncrpc.gss.GssProtectedBody;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.protocol.TraceContext;
import io.rpcrdma.transport.RegisteredItem;
import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * RFC 2203 §5.3: a call under a context: each encoding (a retry too) takes a new sequence number, and the
 * reply may answer any of them, since the server may have answered an earlier transmission.
 */
final class GssProtectedCall implements CallBody {

	/** The transmissions remembered per call; older ones' replies are refused. */
	private static final int REMEMBERED = 4;

	private final GssClientContext context;

	private final CallBody body;

	private final GssProcedure procedure;

	private final GssService protection;

	/** The largest arguments, before protection. */
	private final int maxArguments;

	/** Arguments the body left out but for their length word: their data is in registered buffers. */
	private final List<RegisteredItem> registered;

	private final int[] sequences = new int[REMEMBERED];

	private int sent;

	GssProtectedCall(GssClientContext context, CallBody body, GssProcedure procedure, GssService protection, int maxArguments,
			List<RegisteredItem> registered) {
		this.registered = registered;
		this.context = context;
		this.body = body;
		this.procedure = procedure;
		this.protection = protection;
		this.maxArguments = maxArguments;
	}

	/** RFC 2203 §5.3.2.2, §5.3.2.3: under integrity or privacy the arguments go protected. */
	@Override
	public void write(XdrEncoder encoder) {
		if (this.protection == GssService.NONE) {
			this.body.write(encoder);
			return;
		}
		XdrEncoder plain = new XdrEncoder(ByteBuffer.allocate(this.maxArguments));
		this.body.write(plain);
		ByteBuffer arguments = withRegisteredData(plain.buffer().flip());
		encoder.writeFixedOpaque(GssProtectedBody.protect(this.context.session, this.protection, lastSequence(),
				arguments));
	}

	/** The arguments as XDR has them: each registered item's data (and padding) after its length word. */
	private ByteBuffer withRegisteredData(ByteBuffer written) {
		if (this.registered.isEmpty()) {
			return written;
		}
		long size = written.remaining();
		for (RegisteredItem item : this.registered) {
			size += Xdr.pad(item.length());
		}
		ByteBuffer whole = ByteBuffer.allocate(Math.toIntExact(size));
		int from = 0;
		for (RegisteredItem item : this.registered) {
			whole.put(written.slice(from, item.offset() - from));
			// The data starts at the registered buffer's first byte (CallChunks.withRegisteredArgument).
			ByteBuffer data = item.buffer().buffer().duplicate();
			data.limit(item.length()).position(0);
			whole.put(data);
			whole.position(whole.position() + Xdr.padding(item.length()));
			from = item.offset();
		}
		whole.put(written.slice(from, written.remaining() - from));
		return whole.flip();
	}

	private synchronized int lastSequence() {
		return this.sequences[(this.sent - 1) % REMEMBERED];
	}

	/** Takes the results out of their protection and gives the receive buffers back. */
	ReceivedReply unprotect(ReceivedReply reply) {
		try {
			// What arrived is bounded by the transport; a fault's results may exceed the
			// room the call made for its own results.
			ByteBuffer results = GssProtectedBody.unprotect(this.context.session, this.protection, this::wasSent,
					reply.results(), reply.results().remaining());
			return ReceivedReply.detached(reply.header(), results);
		}
		finally {
			reply.release();
		}
	}

	private synchronized boolean wasSent(int sequence) {
		for (int i = 0; i < Math.min(this.sent, REMEMBERED); i++) {
			if (this.sequences[i] == sequence) {
				return true;
			}
		}
		return false;
	}

	@Override
	public String procedureName() {
		return this.body.procedureName();
	}

	@Override
	public TraceContext traceContext() {
		// The trace context travels in the transport header, outside what GSS protects.
		return this.body.traceContext();
	}

	String procedureNameOrNumbers() {
		String name = this.body.procedureName();
		return (name != null) ? name : "the call";
	}

	@Override
	public synchronized OpaqueAuth credential() {
		int sequence = this.context.nextSequence();
		this.sequences[this.sent++ % REMEMBERED] = sequence;
		return new GssCredential(this.procedure, sequence, this.protection, this.context.handle).toAuth();
	}

	/** RFC 2203 §5.3.1: the verifier is a MIC over the header from the xid through the credential. */
	@Override
	public OpaqueAuth verifier(ByteBuffer header) {
		byte[] bytes = new byte[header.remaining()];
		header.duplicate().get(bytes);
		return new RawAuth(AuthFlavor.RPCSEC_GSS, this.context.session.mic(bytes, 0, bytes.length));
	}

	synchronized boolean verifies(byte[] mic) {
		byte[] sequence = new byte[4];
		for (int i = 0; i < Math.min(this.sent, REMEMBERED); i++) {
			ByteBuffer.wrap(sequence).putInt(this.sequences[i]);
			if (this.context.session.verifyMic(sequence, 0, 4, mic)) {
				return true;
			}
		}
		return false;
	}

}
