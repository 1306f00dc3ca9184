package io.rpcrdma.discovery.rpcbind;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Function;

import io.rpcrdma.log.Durations;
import io.rpcrdma.oncrpc.AcceptStatus;
import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.oncrpc.DeniedReply;
import io.rpcrdma.oncrpc.OncRpcException;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;
import io.rpcrdma.xdr.XdrLimitExceededException;

/**
 * A client of rpcbind version 4 (RFC 1833 §2) over one TCP connection with RFC 5531 §11
 * record marking, one call at a time.
 * <p>
 * It connects only to the address it is given, and bounds everything: the connect and every
 * call by the timeout (each read waits at most for what is left of the call's deadline), a
 * reply record by {@value #MAX_REPLY_LENGTH} bytes, each string by the limits of
 * {@link RpcbindMapping}, a DUMP by {@value #MAX_DUMP_ENTRIES} entries. A call that fails in
 * transit (timeout, malformed or mismatched reply, lost connection) closes the connection, so
 * a late reply can never be taken for the next call's; later calls fail at once.
 * <p>
 * Calls go with AUTH_NONE: rpcbind decides who may SET and UNSET from the transport (its
 * local socket, or, started with {@code -i}, any host), not from a credential it cannot check.
 */
public final class RpcbindClient implements AutoCloseable {

	/** RFC 1833 §2: RPCBPROG. */
	public static final int PROGRAM = 100000;

	/** RFC 1833 §2.2: RPCBVERS4. */
	public static final int VERSION = 4;

	/** RFC 1833 §2: rpcbind's well-known port on TCP and UDP. */
	public static final int PORT = 111;

	/** The deadline of the connect and of each call unless another is given. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

	/** The largest reply record accepted: a DUMP of thousands of mappings fits. */
	public static final int MAX_REPLY_LENGTH = 1 << 20;

	/** The most mappings a DUMP may return. */
	public static final int MAX_DUMP_ENTRIES = 8192;

	static final int NULLPROC = 0;

	static final int SET = 1;

	static final int UNSET = 2;

	static final int GETADDR = 3;

	static final int DUMP = 4;

	static final int GETVERSADDR = 9;

	/** Room for the header and the largest rpcb this client sends. */
	private static final int CALL_BUFFER = 2048;

	private final InetSocketAddress rpcbind;

	private final Duration timeout;

	private final Socket socket;

	private final DeadlineInputStream in;

	private int xid = ThreadLocalRandom.current().nextInt();

	private boolean broken;

	private RpcbindClient(InetSocketAddress rpcbind, Duration timeout, Socket socket) throws IOException {
		this.rpcbind = rpcbind;
		this.timeout = timeout;
		this.socket = socket;
		this.in = new DeadlineInputStream(socket);
	}

	/** @return 127.0.0.1:111, where a host's own rpcbind listens */
	public static InetSocketAddress defaultAddress() {
		try {
			// Not InetAddress.getLoopbackAddress(), which is ::1 when IPv6 is preferred.
			return new InetSocketAddress(InetAddress.getByAddress(new byte[] { 127, 0, 0, 1 }), PORT);
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException("a 4-byte address is always valid", ex);
		}
	}

	/**
	 * Connects to rpcbind.
	 * @param rpcbind where rpcbind listens, usually {@link #defaultAddress()} or port 111 of
	 * the server's host
	 * @param timeout bounds the connect and each call
	 * @return the client
	 * @throws RpcbindUnavailableException if nothing accepts the connection in time
	 */
	public static RpcbindClient connect(InetSocketAddress rpcbind, Duration timeout) {
		Objects.requireNonNull(rpcbind, "rpcbind");
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive but was " + Durations.written(timeout));
		}
		if (rpcbind.isUnresolved()) {
			throw new RpcbindUnavailableException(rpcbind, "the host name does not resolve", null);
		}
		Socket socket = new Socket();
		try {
			socket.setTcpNoDelay(true);
			socket.connect(rpcbind, (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
			return new RpcbindClient(rpcbind, timeout, socket);
		}
		catch (SocketTimeoutException ex) {
			closeQuietly(socket);
			throw new RpcbindUnavailableException(rpcbind, "no connection within " + Durations.written(timeout), ex);
		}
		catch (IOException ex) {
			closeQuietly(socket);
			throw new RpcbindUnavailableException(rpcbind, ex.getMessage(), ex);
		}
	}

	/** @return the rpcbind this client talks to */
	public InetSocketAddress rpcbind() {
		return this.rpcbind;
	}

	/**
	 * RPCBPROC_NULL: checks that rpcbind version 4 answers.
	 */
	public void ping() {
		call(NULLPROC, "NULL", (encoder) -> {
		}, (decoder) -> null);
	}

	/**
	 * RPCBPROC_SET (RFC 1833 §2.2.1): registers a mapping.
	 * @param mapping what to register
	 * @return rpcbind's answer: FALSE when it holds that program, version and netid already
	 * (at any address) or refuses the caller
	 */
	public boolean set(RpcbindMapping mapping) {
		return call(SET, "SET", (encoder) -> encode(mapping, encoder), XdrDecoder::readBoolean);
	}

	/**
	 * RPCBPROC_UNSET (RFC 1833 §2.2.1): removes the mappings of a program version, of one netid
	 * or (with an empty netid) of all; the address is ignored.
	 * @param mapping what to remove
	 * @return rpcbind's answer: FALSE when there was nothing to remove or the caller may not
	 */
	public boolean unset(RpcbindMapping mapping) {
		return call(UNSET, "UNSET", (encoder) -> encode(mapping, encoder), XdrDecoder::readBoolean);
	}

	/**
	 * RPCBPROC_GETADDR (RFC 1833 §2.2.1): the address of a program version.
	 * <p>
	 * Note how rpcbind itself (Linux's 1.2.x) answers: it looks the mapping up under the netid
	 * of the transport the query came over (here {@code tcp}), not the query's
	 * {@code r_netid}, and version 4 answers for any version of the program when the one
	 * asked for is missing. {@link RpcbindResolver} therefore resolves RPC-over-RDMA mappings
	 * from {@link #dump()}.
	 * @param query program, version and netid; address and owner empty
	 * @return the universal address, or empty when rpcbind has none
	 */
	public Optional<String> getAddress(RpcbindMapping query) {
		return call(GETADDR, "GETADDR", (encoder) -> encode(query, encoder), RpcbindClient::decodeAddress);
	}

	/**
	 * RPCBPROC_GETVERSADDR (RFC 1833 §2.2.1): like {@link #getAddress} but for exactly the
	 * version asked for.
	 * @param query program, version and netid; address and owner empty
	 * @return the universal address, or empty when rpcbind has none
	 */
	public Optional<String> getVersionAddress(RpcbindMapping query) {
		return call(GETVERSADDR, "GETVERSADDR", (encoder) -> encode(query, encoder), RpcbindClient::decodeAddress);
	}

	/**
	 * RPCBPROC_DUMP (RFC 1833 §2.2.1): every mapping rpcbind holds.
	 * @return the mappings, in rpcbind's order
	 */
	public List<RpcbindMapping> dump() {
		return call(DUMP, "DUMP", (encoder) -> {
		}, RpcbindClient::decodeList);
	}

	@Override
	public synchronized void close() {
		this.broken = true;
		closeQuietly(this.socket);
	}

	private synchronized <T> T call(int procedure, String name, Consumer<XdrEncoder> arguments,
			Function<XdrDecoder, T> results) {
		if (this.broken) {
			throw new RpcbindUnavailableException(this.rpcbind, "this client's connection was closed"
					+ " (by close() or after a failed call); connect again", null);
		}
		int callXid = ++this.xid;
		ByteBuffer message = ByteBuffer.allocate(CALL_BUFFER);
		XdrEncoder encoder = new XdrEncoder(message);
		RpcMessageCodec.encodeCall(RpcCall.of(callXid, PROGRAM, VERSION, procedure), encoder);
		arguments.accept(encoder);
		message.flip();
		boolean ok = false;
		try {
			this.in.deadline(System.nanoTime() + this.timeout.toNanos());
			// A call is at most CALL_BUFFER bytes, less than any TCP send buffer, so this write
			// completes without waiting on the peer; the reads below carry the deadline.
			RecordMarking.write(message, this.socket.getOutputStream());
			ByteBuffer record = RecordMarking.read(this.in, MAX_REPLY_LENGTH);
			T value = interpret(callXid, name, new XdrDecoder(record), results);
			ok = true;
			return value;
		}
		catch (SocketTimeoutException ex) {
			throw new RpcbindTimeoutException(this.rpcbind, name, this.timeout, ex);
		}
		catch (RecordMarking.RecordTooLargeException ex) {
			throw new RpcbindProtocolException(this.rpcbind, name, ex.getMessage(), ex);
		}
		catch (EOFException ex) {
			throw new RpcbindUnavailableException(this.rpcbind, "during " + name + ", " + ex.getMessage(), ex);
		}
		catch (IOException ex) {
			throw new RpcbindUnavailableException(this.rpcbind, "during " + name + ": " + ex.getMessage(), ex);
		}
		finally {
			if (!ok) {
				// Whatever rpcbind sends next on this connection would be misread.
				close();
			}
		}
	}

	private <T> T interpret(int callXid, String name, XdrDecoder decoder, Function<XdrDecoder, T> results) {
		RpcReply reply;
		try {
			reply = RpcMessageCodec.decodeReply(decoder);
		}
		catch (OncRpcException | XdrException ex) {
			throw new RpcbindProtocolException(this.rpcbind, name, ex.getMessage(), ex);
		}
		if (reply.xid() != callXid) {
			// One call at a time on this connection, and a timed-out call closes it: a reply
			// for another xid cannot be a late answer, so it is not one of ours (RFC 5531 §9).
			throw new RpcbindProtocolException(this.rpcbind, name, String.format(
					"the reply carries xid 0x%08x but the call was xid 0x%08x", reply.xid(), callXid), null);
		}
		if (!reply.isSuccess()) {
			throw new RpcbindRejectedException(this.rpcbind, name, describe(reply));
		}
		try {
			return results.apply(decoder);
		}
		catch (XdrException ex) {
			throw new RpcbindProtocolException(this.rpcbind, name, "its results do not decode: " + ex.getMessage(), ex);
		}
	}

	private static String describe(RpcReply reply) {
		if (reply.body() instanceof AcceptedReply accepted) {
			AcceptStatus status = accepted.status();
			if (status instanceof AcceptStatus.ProgUnavail) {
				return "PROG_UNAVAIL: no rpcbind program (100000) there";
			}
			if (status instanceof AcceptStatus.ProgMismatch mismatch) {
				return "PROG_MISMATCH: it speaks versions " + Integer.toUnsignedString(mismatch.low()) + " to "
						+ Integer.toUnsignedString(mismatch.high()) + " only, not rpcbind version 4 (RFC 1833);"
						+ " an old portmapper cannot register netids such as rdma";
			}
			if (status instanceof AcceptStatus.ProcUnavail) {
				return "PROC_UNAVAIL: this rpcbind does not implement the procedure";
			}
			if (status instanceof AcceptStatus.GarbageArgs) {
				return "GARBAGE_ARGS: it could not decode the arguments";
			}
			return "SYSTEM_ERR: it failed on its side";
		}
		if (reply.body() instanceof DeniedReply.AuthError error) {
			return "MSG_DENIED AUTH_ERROR " + error.status();
		}
		return "MSG_DENIED RPC_MISMATCH: it does not speak ONC RPC version 2";
	}

	private static void encode(RpcbindMapping mapping, XdrEncoder encoder) {
		encoder.writeInt(mapping.program())
			.writeInt(mapping.version())
			.writeString(mapping.netid())
			.writeString(mapping.address())
			.writeString(mapping.owner());
	}

	private static RpcbindMapping decodeMapping(XdrDecoder decoder) {
		int program = decoder.readInt();
		int version = decoder.readInt();
		String netid = decoder.readString(RpcbindMapping.MAX_NETID_LENGTH);
		String address = decoder.readString(RpcbindMapping.MAX_ADDRESS_LENGTH);
		String owner = decoder.readString(RpcbindMapping.MAX_OWNER_LENGTH);
		return new RpcbindMapping(program, version, netid, address, owner);
	}

	private static Optional<String> decodeAddress(XdrDecoder decoder) {
		String address = decoder.readString(RpcbindMapping.MAX_ADDRESS_LENGTH);
		return address.isEmpty() ? Optional.empty() : Optional.of(address);
	}

	/**
	 * RFC 1833 §2.1 {@code rpcblist_ptr}: a linked list in XDR optional-data form (RFC 4506
	 * §4.19), each element preceded by TRUE and the list ended by FALSE.
	 */
	private static List<RpcbindMapping> decodeList(XdrDecoder decoder) {
		List<RpcbindMapping> mappings = new ArrayList<>();
		while (decoder.readBoolean()) {
			if (mappings.size() == MAX_DUMP_ENTRIES) {
				throw new XdrLimitExceededException("rpcblist entries", MAX_DUMP_ENTRIES + 1L,
						MAX_DUMP_ENTRIES);
			}
			mappings.add(decodeMapping(decoder));
		}
		return mappings;
	}

	static String text(InetSocketAddress address) {
		return address.isUnresolved() ? address.getHostString() + ":" + address.getPort()
				: ((address.getAddress() instanceof Inet6Address) ? "[" + address.getAddress().getHostAddress() + "]"
						: address.getAddress().getHostAddress()) + ":" + address.getPort();
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// Nothing more to release.
		}
	}

	/**
	 * Bounds each blocking read by what is left of the current call's deadline, so a peer that
	 * trickles bytes cannot stretch a call beyond it.
	 */
	private static final class DeadlineInputStream extends FilterInputStream {

		private final Socket socket;

		private long deadline;

		DeadlineInputStream(Socket socket) throws IOException {
			super(socket.getInputStream());
			this.socket = socket;
		}

		void deadline(long nanoTime) {
			this.deadline = nanoTime;
		}

		@Override
		public int read() throws IOException {
			arm();
			return super.read();
		}

		@Override
		public int read(byte[] bytes, int offset, int length) throws IOException {
			arm();
			return super.read(bytes, offset, length);
		}

		private void arm() throws IOException {
			long left = this.deadline - System.nanoTime();
			if (left <= 0) {
				throw new SocketTimeoutException("the call's deadline passed");
			}
			this.socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, Duration.ofNanos(left).toMillis())));
		}

	}

}
