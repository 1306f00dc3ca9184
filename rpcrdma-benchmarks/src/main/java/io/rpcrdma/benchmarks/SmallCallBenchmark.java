package io.rpcrdma.benchmarks;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.rpcrdma.benchmarks.compare.CompareServer;
import io.rpcrdma.benchmarks.compare.ServerProcess;
import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.service.ClientInvocation;
import io.rpcrdma.service.RpcClientInterceptor;
import io.rpcrdma.service.ServiceClientFactory;
import io.rpcrdma.service.ServiceClientOptions;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.transport.OutboundCall;
import io.rpcrdma.transport.RpcTransport;
import io.rpcrdma.transport.TransportConfig;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * One small call at a time over software iWARP: latency, and with {@code -prof gc} the bytes
 * allocated per call ({@code gc.alloc.rate.norm}). With {@code server=process} the server runs
 * in a child JVM, so the allocation reported is the client's alone; with {@code server=jvm}
 * it is client and server together.
 * <pre>
 * java -jar rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar SmallCall -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = { "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED" })
public class SmallCallBenchmark {

	private static final CallBody TWO_INTS = (encoder) -> encoder.writeInt(1).writeInt(2);

	private static final CallChunks SHAPE = CallChunks.of(RpcClient.MAX_CALL_HEADER_SIZE + 8, 0);

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	/** Where the server runs: {@code jvm} (this one) or {@code process} (a child JVM). */
	@Param({ "process", "jvm" })
	public String server;

	private ServerProcess child;

	private CompareServer inJvm;

	private RdmaProvider provider;

	private RegisteredMemoryPool pool;

	private RpcClientPool clients;

	private Calculator calculator;

	/** The same proxy with one interceptor that only passes the call on: its cost. */
	private Calculator interceptedCalculator;

	private RpcTransport transport;

	/** ADD(1, 2) encoded once; each call writes a new XID into it (the transport copies it). */
	private OutboundCall transportAdd;

	private final TransportCallCompletion completion = new TransportCallCompletion();

	private int nextXid = 0x7A000000;

	@Setup(Level.Trial)
	public void connect() throws Exception {
		InetSocketAddress address;
		if ("process".equals(this.server)) {
			this.child = new ServerProcess();
			address = this.child.address();
		}
		else {
			this.inJvm = new CompareServer("siw", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
			address = this.inJvm.address();
		}
		connectTo(address);
	}

	/**
	 * Connects the clients to a server started elsewhere ({@link #close()} then leaves it be).
	 * @param address where it listens
	 * @throws Exception if the connection or the first calls fail
	 */
	void connectTo(InetSocketAddress address) throws Exception {
		this.provider = RdmaProviders.open("siw");
		this.pool = new RegisteredMemoryPool(this.provider.allocateProtectionDomain(),
				MemoryPoolConfig.defaults(TransportConfig.DEFAULT_INLINE_THRESHOLD_V2));
		this.clients = RpcClientPool.connect(this.provider, this.pool, address, TransportConfig.defaults(), 64,
				RpcClientPool.Config.of(1, 1));
		ServiceClientFactory factory = new ServiceClientFactory(new ServiceIntrospector(CodecRegistry.standard()));
		this.calculator = factory.create(Calculator.class, this.clients, ServiceClientOptions.DEFAULTS.withTimeout(TIMEOUT));
		RpcClientInterceptor passOn = ClientInvocation::proceed;
		this.interceptedCalculator = factory.create(Calculator.class, this.clients,
				ServiceClientOptions.DEFAULTS.withTimeout(TIMEOUT).withInterceptors(List.of(passOn)));
		if (this.calculator.add(1, 2) != 3) {
			throw new IllegalStateException("1 + 2 is not 3");
		}
		this.transport = this.clients.connections().get(0).transport();
		ByteBuffer add = ByteBuffer.allocate(RpcClient.MAX_CALL_HEADER_SIZE + 8);
		XdrEncoder encoder = new XdrEncoder(add);
		RpcMessageCodec.encodeCall(RpcCall.of(0, Calculator.PROGRAM, 1, Calculator.ADD), encoder);
		encoder.writeInt(1).writeInt(2);
		this.transportAdd = OutboundCall.inline(add.flip());
		if (transportCall() != 3) {
			throw new IllegalStateException("1 + 2 is not 3 through the transport");
		}
	}

	@TearDown(Level.Trial)
	public void close() throws Exception {
		List<java.util.concurrent.CompletableFuture<Void>> closing = new java.util.ArrayList<>();
		for (RpcClient client : this.clients.connections()) {
			closing.add(client.closeFuture());
		}
		this.clients.close();
		// The connections give their receive buffers back as they close; only then the pool.
		java.util.concurrent.CompletableFuture.allOf(closing.toArray(java.util.concurrent.CompletableFuture[]::new))
			.get(10, TimeUnit.SECONDS);
		this.pool.close();
		this.provider.close();
		if (this.inJvm != null) {
			this.inJvm.close();
		}
		if (this.child != null) {
			this.child.close();
		}
	}

	/** A call through the service proxy: encoding, the result union, decoding. */
	@Benchmark
	public int serviceCall() {
		return this.calculator.add(1, 2);
	}

	/**
	 * A synchronous service call through one interceptor that passes it on.
	 * @return the sum
	 */
	@Benchmark
	public int serviceCallWithOneInterceptor() {
		return this.interceptedCalculator.add(1, 2);
	}

	/**
	 * The same call straight through the first connection's transport with a reused
	 * {@link io.rpcrdma.transport.CallCompletion}: what the transport costs on its own.
	 */
	@Benchmark
	public int transportCall() throws Exception {
		int xid = this.nextXid++;
		this.transportAdd.message().putInt(0, xid);
		this.completion.arm();
		this.transport.call(this.transportAdd, this.completion);
		ByteBuffer reply = this.completion.await(TIMEOUT.toNanos());
		// RFC 5531 accepted reply: xid, REPLY, MSG_ACCEPTED, AUTH_NONE verifier, SUCCESS; then
		// the service layer's result union: its discriminator and the sum (as rpcCall reads it).
		if (reply.getInt(0) != xid || reply.getInt(20) != 0) {
			throw new IllegalStateException("Reply to XID " + xid + " is not a successful reply to it");
		}
		return reply.getInt(28);
	}

	/** The same call through the RPC client without the service layer. */
	@Benchmark
	public int rpcCall() throws Exception {
		ReceivedReply reply = this.clients
			.call(Calculator.PROGRAM, 1, Calculator.ADD, TWO_INTS, SHAPE, true, TIMEOUT)
			.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		try {
			reply.results().readInt();
			return reply.results().readInt();
		}
		finally {
			reply.release();
		}
	}

}
