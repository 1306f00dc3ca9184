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
import java.util.concurrent.atomic.AtomicInteger;

import io.grpc.Attributes;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServerTransportFilter;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;

/**
 * The server of {@link GrpcContender}: unary echo, put and get over Netty (the shaded
 * transport) on 127.0.0.1 in plain text, with a raw {@code byte[]} marshaller so that no
 * protobuf encoding is paid, handlers on Netty's event loop ({@code directExecutor}, like the
 * rpcrdma server's DIRECT executor), message size limits raised to carry the bulk cases. In the
 * comparison's JVM or, through {@link CompareServer#main}, in a process of its own
 * ({@link ServerProcess}) for {@link Growth}'s idle connections, which it counts.
 */
final class GrpcServer implements AutoCloseable {

	private static final String SERVICE = "bench.Compare";

	static final int MAX_MESSAGE = BenchService.MAX_BULK + (1 << 10);

	private static final MethodDescriptor.Marshaller<byte[]> RAW = new RawBytes();

	static final MethodDescriptor<byte[], byte[]> ECHO = method("Echo");

	static final MethodDescriptor<byte[], byte[]> PUT = method("Put");

	static final MethodDescriptor<byte[], byte[]> GET = method("Get");

	/** Payloads by length, built once: neither side pays for filling them per call. */
	private static final Map<Integer, byte[]> PAYLOADS = new ConcurrentHashMap<>();

	private final TransportCount transports = new TransportCount();

	private final Server server;

	/**
	 * Listens on an ephemeral port of the loopback address.
	 * @throws IOException if it cannot listen
	 */
	GrpcServer() throws IOException {
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
			.addTransportFilter(this.transports)
			.addService(service)
			.build()
			.start();
	}

	/** @return where clients connect */
	InetSocketAddress address() {
		return new InetSocketAddress(InetAddress.getLoopbackAddress(), this.server.getPort());
	}

	/** @return HTTP/2 connections ready and not yet terminated */
	int connections() {
		return this.transports.ready.get();
	}

	@Override
	public void close() throws InterruptedException {
		this.server.shutdown();
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

	static byte[] payload(int length) {
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

	/**
	 * Counts transports between ready and terminated. gRPC tells a filter of every transport's
	 * end, also of one that never became ready (its client went away during the HTTP/2
	 * preface), so a ready transport is marked in its attributes and only a marked one counts
	 * down.
	 */
	private static final class TransportCount extends ServerTransportFilter {

		private static final Attributes.Key<Boolean> COUNTED = Attributes.Key.create("growth.counted");

		final AtomicInteger ready = new AtomicInteger();

		@Override
		public Attributes transportReady(Attributes attributes) {
			this.ready.incrementAndGet();
			return attributes.toBuilder().set(COUNTED, Boolean.TRUE).build();
		}

		@Override
		public void transportTerminated(Attributes attributes) {
			if (Boolean.TRUE.equals(attributes.get(COUNTED))) {
				this.ready.decrementAndGet();
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
