package io.rpcrdma.benchmarks.compare;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;

/**
 * gRPC-java, the peer users would pick instead: unary calls over Netty (the shaded
 * transport) on 127.0.0.1 in plain text, with a raw {@code byte[]} marshaller so that no
 * protobuf encoding is paid. One channel carries every client thread's calls, as gRPC
 * intends (HTTP/2 multiplexing). The server runs handlers on Netty's event loop
 * ({@code directExecutor}), like the rpcrdma server's DIRECT executor; message size limits
 * are raised to carry the 16 MiB bulk case.
 */
final class GrpcContender implements Contender {

	private static final String SERVICE = "bench.Compare";

	private static final int MAX_MESSAGE = BenchService.MAX_BULK + (1 << 10);

	private static final MethodDescriptor.Marshaller<byte[]> RAW = new RawBytes();

	private static final MethodDescriptor<byte[], byte[]> ECHO = method("Echo");

	private static final MethodDescriptor<byte[], byte[]> PUT = method("Put");

	private static final MethodDescriptor<byte[], byte[]> GET = method("Get");

	/** Payloads by length, built once: neither side pays for filling them per call. */
	private static final Map<Integer, byte[]> PAYLOADS = new ConcurrentHashMap<>();

	private final Server server;

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
		ServerServiceDefinition service = ServerServiceDefinition.builder(SERVICE)
			.addMethod(ECHO, ServerCalls.asyncUnaryCall((request, response) -> {
				response.onNext(request);
				response.onCompleted();
			}))
			.addMethod(PUT, ServerCalls.asyncUnaryCall((request, response) -> {
				response.onNext(intBytes(request.length));
				response.onCompleted();
			}))
			.addMethod(GET, ServerCalls.asyncUnaryCall((request, response) -> {
				response.onNext(payload(readInt(request)));
				response.onCompleted();
			}))
			.build();
		this.server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
			.directExecutor()
			.maxInboundMessageSize(MAX_MESSAGE)
			.addService(service)
			.build()
			.start();
		this.channel = channel();
	}

	private ManagedChannel channel() {
		return NettyChannelBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.server.getPort()))
			.usePlaintext()
			.maxInboundMessageSize(MAX_MESSAGE)
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
		this.server.shutdown();
		if (!this.channel.awaitTermination(5, TimeUnit.SECONDS)) {
			this.channel.shutdownNow();
		}
		if (!this.server.awaitTermination(5, TimeUnit.SECONDS)) {
			this.server.shutdownNow();
		}
	}

	private static MethodDescriptor<byte[], byte[]> method(String name) {
		return MethodDescriptor.<byte[], byte[]>newBuilder()
			.setType(MethodDescriptor.MethodType.UNARY)
			.setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
			.setRequestMarshaller(RAW)
			.setResponseMarshaller(RAW)
			.setIdempotent(true)
			.build();
	}

	private static byte[] payload(int length) {
		if (length < 0 || length > BenchService.MAX_BULK) {
			throw new IllegalArgumentException("length must be between 0 and " + BenchService.MAX_BULK + ", got " + length);
		}
		return PAYLOADS.computeIfAbsent(length, Payloads::filled);
	}

	static byte[] intBytes(int value) {
		return new byte[] { (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value };
	}

	static int readInt(byte[] data) {
		if (data.length != 4) {
			throw new IllegalArgumentException("expected a 4-byte length, got " + data.length + " bytes");
		}
		return ((data[0] & 0xFF) << 24) | ((data[1] & 0xFF) << 16) | ((data[2] & 0xFF) << 8) | (data[3] & 0xFF);
	}

	private final class GrpcSession implements Session {

		private final ManagedChannel channel;

		GrpcSession(ManagedChannel channel) {
			this.channel = channel;
		}

		@Override
		public void echo(byte[] request) throws Exception {
			byte[] reply = ClientCalls.blockingUnaryCall(this.channel, ECHO, CallOptions.DEFAULT, request);
			if (reply.length != request.length) {
				throw new UnexpectedReplyException(name(), reply.length + " bytes echoed for " + request.length);
			}
		}

		@Override
		public void put(int length) throws Exception {
			byte[] data = payload(length);
			byte[] reply = ClientCalls.blockingUnaryCall(this.channel, PUT, CallOptions.DEFAULT, data);
			if (readInt(reply) != length) {
				throw new UnexpectedReplyException(name(), readInt(reply) + " bytes acknowledged for " + length);
			}
		}

		@Override
		public void get(int length) throws Exception {
			byte[] reply = ClientCalls.blockingUnaryCall(this.channel, GET, CallOptions.DEFAULT,
					intBytes(length));
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

	/** Bytes as they are: what gRPC users do to avoid protobuf's encoding cost. */
	private static final class RawBytes implements MethodDescriptor.Marshaller<byte[]> {

		@Override
		public InputStream stream(byte[] value) {
			return new ByteArrayInputStream(value);
		}

		@Override
		public byte[] parse(InputStream stream) {
			try {
				return stream.readAllBytes();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

}
