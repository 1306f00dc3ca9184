package io.rpcrdma.client.security;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * For the RPCSEC_GSS tests: what a man in the middle, or a broken client, does to calls
 * between an {@link RpcSecGssClient} and its connection pool. Every call's body other than the
 * NULL procedure's goes through {@code tamper} on its way out.
 *
 * @param caller the pool
 * @param tamper rewrites a body, usually as a {@link Body} overriding what it changes
 */
record TamperingCaller(RpcCaller caller, UnaryOperator<CallBody> tamper) implements RpcCaller {

	@Override
	public CompletableFuture<ReceivedReply> call(int program, int version, int procedure, CallBody arguments,
			CallChunks shape, boolean idempotent, Duration timeout) {
		return this.caller.call(program, version, procedure, (procedure != 0) ? this.tamper.apply(arguments) : arguments,
				shape, idempotent, timeout);
	}

	@Override
	public String endpoint() {
		return this.caller.endpoint();
	}

	/** A body that does what another does, until a subclass says otherwise. */
	static class Body implements CallBody {

		private final CallBody body;

		Body(CallBody body) {
			this.body = body;
		}

		@Override
		public void write(XdrEncoder encoder) {
			this.body.write(encoder);
		}

		@Override
		public OpaqueAuth credential() {
			return this.body.credential();
		}

		@Override
		public OpaqueAuth verifier(ByteBuffer header) {
			return this.body.verifier(header);
		}

	}

}
