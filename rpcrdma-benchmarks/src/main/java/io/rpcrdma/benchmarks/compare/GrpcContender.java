package io.rpcrdma.benchmarks.compare;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;

/**
 * gRPC-java, the peer users would pick instead: unary calls over Netty (the shaded
 * transport) on 127.0.0.1 in plain text to a {@link GrpcServer}, with a raw {@code byte[]}
 * marshaller so that no protobuf encoding is paid. One channel carries every client thread's
 * calls, as gRPC intends (HTTP/2 multiplexing). The server runs handlers on Netty's event loop
 * ({@code directExecutor}), like the rpcrdma server's DIRECT executor; message size limits
 * are raised to carry the 16 MiB bulk case.
 */
final class GrpcContender implements Contender {

	private final GrpcServer server;

	private final ManagedChannel channel;

	/** Whether each session has a channel of its own instead of sharing {@link #channel}. */
	private final boolean channelPerSession;

	/** A channel every client thread shares, as gRPC users do. */
	GrpcContender() throws IOException {
		this(false);
	}

	/**
	 * @param channelPerSession whether each session opens a channel (an HTTP/2 connection) of
	 * its own, for cases that grow the number of client connections
	 * @throws IOException if the server cannot start
	 */
	GrpcContender(boolean channelPerSession) throws IOException {
		this.channelPerSession = channelPerSession;
		this.server = new GrpcServer();
		this.channel = channel();
	}

	private ManagedChannel channel() {
		return NettyChannelBuilder.forAddress(this.server.address())
			.usePlaintext()
			.maxInboundMessageSize(GrpcServer.MAX_MESSAGE)
			.build();
	}

	@Override
	public String name() {
		return "grpc-java";
	}

	@Override
	public Session openSession() {
		return new GrpcSession(this.channelPerSession ? channel() : this.channel);
	}

	@Override
	public void close() throws InterruptedException {
		this.channel.shutdown();
		this.server.close();
		if (!this.channel.awaitTermination(5, TimeUnit.SECONDS)) {
			this.channel.shutdownNow();
		}
	}

	private final class GrpcSession implements Session {

		private final ManagedChannel channel;

		GrpcSession(ManagedChannel channel) {
			this.channel = channel;
		}

		@Override
		public void echo(byte[] request) throws Exception {
			byte[] reply = ClientCalls.blockingUnaryCall(this.channel, GrpcServer.ECHO, CallOptions.DEFAULT, request);
			if (reply.length != request.length) {
				throw new UnexpectedReplyException(name(), reply.length + " bytes echoed for " + request.length);
			}
		}

		@Override
		public void put(int length) throws Exception {
			byte[] data = GrpcServer.payload(length);
			byte[] reply = ClientCalls.blockingUnaryCall(this.channel, GrpcServer.PUT, CallOptions.DEFAULT, data);
			if (GrpcServer.readInt(reply) != length) {
				throw new UnexpectedReplyException(name(),
						GrpcServer.readInt(reply) + " bytes acknowledged for " + length);
			}
		}

		@Override
		public void get(int length) throws Exception {
			byte[] reply = ClientCalls.blockingUnaryCall(this.channel, GrpcServer.GET, CallOptions.DEFAULT,
					GrpcServer.intBytes(length));
			if (reply.length != length) {
				throw new UnexpectedReplyException(name(), reply.length + " bytes sent for " + length);
			}
		}

		@Override
		public void close() throws InterruptedException {
			if (this.channel != GrpcContender.this.channel) {
				this.channel.shutdown();
				if (!this.channel.awaitTermination(5, TimeUnit.SECONDS)) {
					this.channel.shutdownNow();
				}
			}
		}

	}

}
