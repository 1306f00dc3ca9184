package io.rpcrdma.discovery.rpcbind;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrEncoder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the client does with replies no honest rpcbind sends, from a tiny responder on
 * 127.0.0.1 that answers the first call with scripted bytes: each fails the call with a
 * specific exception saying what was wrong, allocates nothing from the peer's lengths, and
 * closes the connection.
 */
class RpcbindClientHostileReplyTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private Responder responder;

	@AfterEach
	void stop() throws IOException {
		if (this.responder != null) {
			this.responder.close();
		}
	}

	/** A single-fragment record holding the reply built by {@code body}. */
	private static byte[] record(Consumer<XdrEncoder> body) {
		ByteBuffer buffer = ByteBuffer.allocate(1 << 18);
		XdrEncoder encoder = new XdrEncoder(buffer);
		int header = encoder.reserveInt();
		body.accept(encoder);
		encoder.patchInt(header, RecordMarking.LAST_FRAGMENT | (buffer.position() - 4));
		byte[] bytes = new byte[buffer.position()];
		buffer.flip().get(bytes);
		return bytes;
	}

	private static byte[] success(int xid, Consumer<XdrEncoder> results) {
		return record((encoder) -> {
			RpcMessageCodec.encodeSuccessHeader(xid, encoder);
			results.accept(encoder);
		});
	}

	private RpcbindClient clientAnsweredWith(IntFunction<byte[]> reply) throws IOException {
		this.responder = new Responder(reply);
		return RpcbindClient.connect(this.responder.address(), TIMEOUT);
	}

	private static RpcbindMapping query() {
		return new RpcbindMapping(400100, 1, "rdma", "", "");
	}

	@Test
	void aWellFormedReplyInTwoFragmentsIsReassembled() throws IOException {
		try (RpcbindClient client = clientAnsweredWith((xid) -> {
			byte[] whole = success(xid, (encoder) -> encoder.writeString("192.0.2.9.78.81"));
			// Split the one fragment into two (RFC 5531 §11), the first not last.
			ByteBuffer split = ByteBuffer.allocate(whole.length + 4);
			int body = whole.length - 4;
			split.putInt(8).put(whole, 4, 8).putInt(RecordMarking.LAST_FRAGMENT | (body - 8)).put(whole, 12, body - 8);
			return split.array();
		})) {
			assertThat(client.getAddress(query())).contains("192.0.2.9.78.81");
		}
	}

	@Test
	void aReplyForAnotherXidIsRefusedNamingBoth() throws IOException {
		try (RpcbindClient client = clientAnsweredWith((xid) -> success(xid + 1, (encoder) -> encoder.writeBoolean(true)))) {
			assertThatExceptionOfType(RpcbindProtocolException.class).isThrownBy(() -> client.set(query()))
				.withMessageContaining("answered SET with a malformed reply")
				.withMessageMatching("(?s).*reply carries xid 0x[0-9a-f]{8} but the call was xid 0x[0-9a-f]{8}.*");
		}
	}

	@Test
	void resultsCutShortAreAProtocolError() throws IOException {
		try (RpcbindClient client = clientAnsweredWith((xid) -> success(xid, (encoder) -> {
		}))) {
			assertThatExceptionOfType(RpcbindProtocolException.class).isThrownBy(() -> client.set(query()))
				.withMessageContaining("its results do not decode");
		}
	}

	@Test
	void aHeaderCutShortIsAProtocolError() throws IOException {
		try (RpcbindClient client = clientAnsweredWith((xid) -> record((encoder) -> encoder.writeInt(xid).writeInt(1)))) {
			assertThatExceptionOfType(RpcbindProtocolException.class).isThrownBy(() -> client.ping())
				.withMessageContaining("truncated");
		}
	}

	@Test
	void anOversizedStringLengthIsRefusedBeforeAnythingIsAllocatedFromIt() throws IOException {
		try (RpcbindClient client = clientAnsweredWith((xid) -> success(xid, (encoder) -> encoder.writeInt(0x7FFF_FFFF)))) {
			assertThatExceptionOfType(RpcbindProtocolException.class).isThrownBy(() -> client.getAddress(query()))
				.withMessageContaining("2147483647 exceeds the limit of " + RpcbindMapping.MAX_ADDRESS_LENGTH);
		}
	}

	@Test
	void aFragmentAnnouncingMoreThanTheReplyLimitIsRefusedBeforeItsDataIsRead() throws IOException {
		try (RpcbindClient client = clientAnsweredWith((xid) -> ByteBuffer.allocate(8).putInt(0xFFFF_FFFF).putInt(xid).array())) {
			assertThatExceptionOfType(RpcbindProtocolException.class).isThrownBy(() -> client.dump())
				.withMessageContaining("announce at least 2147483647 bytes, more than the " + RpcbindClient.MAX_REPLY_LENGTH);
		}
	}

	@Test
	void aDumpLongerThanTheEntryLimitIsRefused() throws IOException {
		try (RpcbindClient client = clientAnsweredWith((xid) -> success(xid, (encoder) -> {
			for (int i = 0; i <= RpcbindClient.MAX_DUMP_ENTRIES; i++) {
				encoder.writeBoolean(true).writeInt(i).writeInt(1).writeString("").writeString("").writeString("");
			}
			encoder.writeBoolean(false);
		}))) {
			assertThatExceptionOfType(RpcbindProtocolException.class).isThrownBy(() -> client.dump())
				.withMessageContaining("rpcblist entries");
		}
	}

	@Test
	void aPortmapperWithoutVersionFourIsNamedAsSuch() throws IOException {
		try (RpcbindClient client = clientAnsweredWith((xid) -> record(
				(encoder) -> RpcMessageCodec.encodeReply(RpcReply.progMismatch(xid, 2, 2), encoder)))) {
			assertThatExceptionOfType(RpcbindRejectedException.class).isThrownBy(() -> client.set(query()))
				.withMessageContaining("PROG_MISMATCH: it speaks versions 2 to 2 only, not rpcbind version 4");
		}
	}

	@Test
	void aConnectionClosedInsideARecordLeavesRpcbindUnavailable() throws IOException {
		try (RpcbindClient client = clientAnsweredWith((xid) -> {
			byte[] whole = success(xid, (encoder) -> encoder.writeBoolean(true));
			return Arrays.copyOf(whole, whole.length - 2);
		})) {
			assertThatExceptionOfType(RpcbindUnavailableException.class).isThrownBy(() -> client.set(query()))
				.withMessageContaining("during SET, the connection closed");
		}
	}

	@Test
	void aSilentPeerTimesOutWithinTheDeadlineAndLaterCallsFailAtOnce() throws IOException {
		this.responder = new Responder(null);
		try (RpcbindClient client = RpcbindClient.connect(this.responder.address(), Duration.ofMillis(300))) {
			long start = System.nanoTime();
			assertThatExceptionOfType(RpcbindTimeoutException.class).isThrownBy(() -> client.dump())
				.withMessageContaining("did not answer DUMP within 300 ms");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
			assertThatExceptionOfType(RpcbindUnavailableException.class).isThrownBy(() -> client.ping())
				.withMessageContaining("connection was closed");
		}
	}

	@Test
	void nothingListeningIsReportedAsRpcbindNotRunningThere() throws IOException {
		int port;
		try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			port = gone.getLocalPort();
		}
		InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
		assertThatExceptionOfType(RpcbindUnavailableException.class)
			.isThrownBy(() -> RpcbindClient.connect(address, TIMEOUT))
			.withMessageContaining("rpcbind is not reachable at 127.0.0.1:" + port)
			.withMessageContaining("start it there")
			.satisfies((ex) -> assertThat(ex.rpcbind()).isEqualTo(address));
	}

	/**
	 * Accepts one connection, reads one call record and answers it with {@code reply} applied
	 * to the call's xid ({@code null}: never answers), then holds the connection until closed.
	 */
	private static final class Responder implements AutoCloseable {

		private final ServerSocket server;

		private final Thread thread;

		private final CountDownLatch done = new CountDownLatch(1);

		Responder(IntFunction<byte[]> reply) throws IOException {
			this.server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
			this.thread = new Thread(() -> serve(reply), "rpcbind-responder");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		InetSocketAddress address() {
			return new InetSocketAddress(this.server.getInetAddress(), this.server.getLocalPort());
		}

		private void serve(IntFunction<byte[]> reply) {
			try (Socket socket = this.server.accept()) {
				DataInputStream in = new DataInputStream(socket.getInputStream());
				int length = in.readInt() & 0x7FFF_FFFF;
				byte[] call = new byte[Math.min(length, 4096)];
				in.readFully(call);
				if (reply != null) {
					OutputStream out = socket.getOutputStream();
					out.write(reply.apply(ByteBuffer.wrap(call).getInt()));
					out.flush();
					socket.shutdownOutput();
				}
				this.done.await(30, TimeUnit.SECONDS);
			}
			catch (IOException | InterruptedException ex) {
				// The test ended the exchange.
			}
		}

		@Override
		public void close() throws IOException {
			this.done.countDown();
			this.server.close();
		}

	}

}
