package io.rpcrdma.discovery.rpcbind;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rpcrdma.fuzz.DecodeBudget;

/**
 * Fuzzes what an rpcbind (or whatever listens on its port) answers the client: the record
 * marking (RFC 5531 §11), the reply header and the results of NULL, SET, UNSET, GETADDR,
 * GETVERSADDR and DUMP (RFC 1833 §2.2.1), and what the resolver makes of the mappings and
 * universal addresses it finds. The bytes come from a responder on 127.0.0.1 over a real
 * connection, which answers the call it read and then closes its side. Contract: a result,
 * or an {@link RpcbindException} saying what was wrong (a protocol error, a rejection, a
 * connection closed inside a record), never a timeout, since the responder never leaves the
 * client waiting; an address from rpcbind parses or is refused as malformed and formats back
 * to an address that parses to itself.
 * <p>
 * Input: a settings byte (bits 0-2 the call: NULL, SET, UNSET, GETADDR, GETVERSADDR, DUMP,
 * DUMP, DUMP; bit 3 the call's xid is written over bytes 4 to 7 of the answer, where a
 * one-fragment record's xid is), then the bytes the responder sends.
 */
class RpcbindReplyFuzzTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final RpcbindMapping QUERY = new RpcbindMapping(400100, 1, "rdma", "", "");

	private static Responder responder;

	@BeforeAll
	static void startResponder() throws IOException {
		responder = new Responder();
	}

	@AfterAll
	static void stopResponder() throws IOException {
		responder.close();
	}

	@FuzzTest(maxDuration = "30s")
	void answerRpcbindCall(byte[] input) {
		try (SilentCloseable allowed = allowConnectionsToTheResponder()) {
			DecodeBudget.check(input.length, () -> call(input));
		}
	}

	/**
	 * Jazzer's server-side request forgery detector reports every connection a fuzz test makes
	 * unless the test allows it, for the run of one input; these are the target's own. The
	 * detector exists only when fuzzing, where Jazzer's agent runs.
	 */
	private static SilentCloseable allowConnectionsToTheResponder() {
		String fuzzing = System.getenv("JAZZER_FUZZ");
		if (fuzzing == null || fuzzing.isEmpty()) {
			return () -> {
			};
		}
		int port = responder.address().getPort();
		return BugDetectors.allowNetworkConnections((host, to) -> to == port);
	}

	private static void call(byte[] input) {
		if (input.length == 0) {
			return;
		}
		int settings = input[0];
		responder.answer(Arrays.copyOfRange(input, 1, input.length), (settings & 8) != 0);
		try (RpcbindClient client = RpcbindClient.connect(responder.address(), TIMEOUT)) {
			switch (settings & 7) {
				case 0 -> client.ping();
				case 1 -> client.set(QUERY);
				case 2 -> client.unset(QUERY);
				case 3 -> address(client.getAddress(QUERY));
				case 4 -> address(client.getVersionAddress(QUERY));
				default -> resolve(client.dump());
			}
		}
		catch (RpcbindProtocolException | RpcbindRejectedException | RpcbindUnavailableException expected) {
			assertThat(expected.getMessage()).isNotBlank();
		}
	}

	private static void address(Optional<String> text) {
		if (text.isEmpty()) {
			return;
		}
		UniversalAddress address;
		try {
			address = UniversalAddress.parse(text.get());
		}
		catch (MalformedUniversalAddressException expected) {
			assertThat(expected.getMessage()).isNotBlank();
			return;
		}
		assertThat(UniversalAddress.parse(address.format())).isEqualTo(address);
	}

	private static void resolve(List<RpcbindMapping> mappings) {
		for (RpcbindMapping mapping : mappings) {
			assertThat(mapping.toString()).isNotBlank();
			RdmaNetid.lookup(mapping.netid());
			address(Optional.of(mapping.address()).filter((text) -> !text.isEmpty()));
		}
		try {
			InetSocketAddress found = RpcbindResolver.pick(responder.address(), QUERY.program(), QUERY.version(), mappings);
			assertThat(found.getPort()).isBetween(0, 65535);
		}
		catch (RpcbindProtocolException | ProgramNotRegisteredException expected) {
			assertThat(expected.getMessage()).isNotBlank();
		}
	}

	/** Answers each call on 127.0.0.1 with the bytes it was given, then closes its side. */
	private static final class Responder implements AutoCloseable {

		private final ServerSocket server;

		private final Thread thread;

		private volatile byte[] answer = new byte[0];

		private volatile boolean patchXid;

		Responder() throws IOException {
			this.server = new ServerSocket(0, 50, InetAddress.getByAddress(new byte[] { 127, 0, 0, 1 }));
			this.thread = new Thread(this::serve, "rpcbind-fuzz-responder");
			this.thread.setDaemon(true);
			this.thread.start();
		}

		InetSocketAddress address() {
			return (InetSocketAddress) this.server.getLocalSocketAddress();
		}

		void answer(byte[] bytes, boolean patchXid) {
			this.answer = bytes;
			this.patchXid = patchXid;
		}

		private void serve() {
			while (!this.server.isClosed()) {
				try (Socket socket = this.server.accept()) {
					DataInputStream in = new DataInputStream(socket.getInputStream());
					int mark = in.readInt();
					byte[] call = new byte[mark & 0x7FFF_FFFF];
					in.readFully(call);
					byte[] bytes = this.answer.clone();
					if (this.patchXid && bytes.length >= 8) {
						ByteBuffer.wrap(bytes).putInt(4, ByteBuffer.wrap(call).getInt());
					}
					OutputStream out = socket.getOutputStream();
					out.write(bytes);
					socket.shutdownOutput();
					drain(in);
				}
				catch (IOException ex) {
					// The client closed first, or the responder is closing: next connection.
				}
			}
		}

		private static void drain(InputStream in) throws IOException {
			byte[] sink = new byte[256];
			while (in.read(sink) >= 0) {
				// until the client closes
			}
		}

		@Override
		public void close() throws IOException {
			this.server.close();
		}

	}

}
