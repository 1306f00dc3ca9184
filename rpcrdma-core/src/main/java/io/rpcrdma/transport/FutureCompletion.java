package io.rpcrdma.transport;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.rpcrdma.xdr.OpaquePadding;

/**
 * The future of {@link RpcTransport#call(OutboundCall)}, told by the completion path: one
 * object per call, for the transports that implement the future form on top of
 * {@link RpcTransport#call(OutboundCall, CallCompletion)}.
 */
final class FutureCompletion extends CompletableFuture<InboundReply> implements CallCompletion {

	private final int xid;

	FutureCompletion(int xid) {
		this.xid = xid;
	}

	@Override
	public void replied(int version, ByteBuffer message, List<ByteBuffer> writeChunks, OpaquePadding padding) {
		complete(new InboundReply(this.xid, version, message, writeChunks, padding));
	}

	@Override
	public void failed(Throwable failure) {
		completeExceptionally(failure);
	}

}
