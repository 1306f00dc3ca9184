package io.rpcrdma.benchmarks;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The XDR (RFC 4506) and ONC RPC (RFC 5531) codecs on a small call's path: a call header
 * with a 64-byte opaque argument, and its reply, encoded into and decoded from a reused
 * direct buffer as the transport does. Run with {@code -prof gc} to see that encoding
 * allocates nothing.
 * <pre>
 * java -jar rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar OncRpcCodec -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OncRpcCodecBenchmark {

	private final byte[] argument = new byte[64];

	private final ByteBuffer buffer = ByteBuffer.allocateDirect(1024);

	private final XdrEncoder encoder = new XdrEncoder(this.buffer);

	private final XdrDecoder decoder = new XdrDecoder(this.buffer);

	private RpcCall call;

	private RpcCall callWithAuthSys;

	private RpcReply reply;

	private ByteBuffer encodedCall;

	private ByteBuffer encodedReply;

	@Setup
	public void encodeOnce() {
		this.call = RpcCall.of(0x12345678, 0x20000A01, 1, 1);
		this.callWithAuthSys = RpcCall.of(0x12345678, 0x20000A01, 1, 1,
				new AuthSys(1_700_000_000, "bench-host", 1000, 1000, new int[] { 1000, 10 }));
		this.reply = RpcReply.success(0x12345678);
		this.encodedCall = encode((encoder) -> {
			RpcMessageCodec.encodeCall(this.call, encoder);
			encoder.writeOpaque(this.argument);
		});
		this.encodedReply = encode((encoder) -> {
			RpcMessageCodec.encodeReply(this.reply, encoder);
			encoder.writeOpaque(this.argument);
		});
	}

	/** A call header (AUTH_NONE) and the 64-byte argument. */
	@Benchmark
	public int encodeCall() {
		XdrEncoder out = this.encoder.reset(this.buffer.clear());
		RpcMessageCodec.encodeCall(this.call, out);
		out.writeOpaque(this.argument);
		return out.position();
	}

	/** The same with AUTH_SYS credentials (RFC 5531 Appendix A). */
	@Benchmark
	public int encodeCallAuthSys() {
		XdrEncoder out = this.encoder.reset(this.buffer.clear());
		RpcMessageCodec.encodeCall(this.callWithAuthSys, out);
		out.writeOpaque(this.argument);
		return out.position();
	}

	/** The accepted-success reply header and the 64-byte result. */
	@Benchmark
	public int encodeReply() {
		XdrEncoder out = this.encoder.reset(this.buffer.clear());
		RpcMessageCodec.encodeReply(this.reply, out);
		out.writeOpaque(this.argument);
		return out.position();
	}

	/** The call header, then the argument as a view of the buffer. */
	@Benchmark
	public int decodeCall() {
		XdrDecoder in = this.decoder.reset(this.encodedCall.duplicate());
		RpcCall decoded = RpcMessageCodec.decodeCall(in);
		return decoded.procedure() + in.readOpaque(1024).remaining();
	}

	/** The reply header, then the result as a view of the buffer. */
	@Benchmark
	public int decodeReply() {
		XdrDecoder in = this.decoder.reset(this.encodedReply.duplicate());
		RpcReply decoded = RpcMessageCodec.decodeReply(in);
		return decoded.xid() + in.readOpaque(1024).remaining();
	}

	private static ByteBuffer encode(java.util.function.Consumer<XdrEncoder> body) {
		ByteBuffer out = ByteBuffer.allocateDirect(1024);
		body.accept(new XdrEncoder(out));
		return out.flip().asReadOnlyBuffer();
	}

}
