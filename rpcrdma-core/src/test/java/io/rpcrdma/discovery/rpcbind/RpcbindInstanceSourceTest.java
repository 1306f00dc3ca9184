package io.rpcrdma.discovery.rpcbind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.rpcrdma.client.balance.ServerInstance;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * {@link RpcbindInstanceSource} against small stand-in rpcbinds on 127.0.0.1 that answer DUMP
 * with what a test says they hold, and can go away: which instances it lists as hosts gain,
 * lose and stop answering for a program, and that an ejection makes it tell its subscribers on
 * a thread of its own. The real rpcbind is in {@link RpcbindInstanceSourceDaemonTest}.
 */
class RpcbindInstanceSourceTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final int PROGRAM = 0x4000_1234;

	private final List<FakeRpcbind> fakes = new ArrayList<>();

	@AfterEach
	void stop() throws IOException {
		for (FakeRpcbind fake : this.fakes) {
			fake.close();
		}
	}

	private FakeRpcbind fake(RpcbindMapping... held) throws IOException {
		FakeRpcbind fake = new FakeRpcbind(List.of(held));
		this.fakes.add(fake);
		return fake;
	}

	private static RpcbindMapping rdma(int version, int port) {
		return new RpcbindMapping(PROGRAM, version, "rdma", "127.0.0.1." + (port >> 8) + "." + (port & 0xFF), "");
	}

	private static RpcbindInstanceSource source(FakeRpcbind... hosts) {
		return new RpcbindInstanceSource(Arrays.stream(hosts).map(FakeRpcbind::address).toList(), PROGRAM, 1,
				new RpcbindResolver(TIMEOUT));
	}

	@Test
	void eachHostMappingTheProgramGivesOneInstanceNamedAfterItsRpcbind() throws Exception {
		FakeRpcbind first = fake(rdma(1, 20049));
		FakeRpcbind second = fake(rdma(1, 20050), rdma(2, 20051));

		List<ServerInstance> instances = source(first, second).instances();

		assertThat(instances).extracting((instance) -> instance.address().getPort()).containsExactly(20049, 20050);
		assertThat(instances.get(0).id()).isEqualTo("rpcbind://127.0.0.1:" + first.address().getPort() + "/"
				+ PROGRAM + "/1");
		assertThat(instances.get(0).metadata()).isEqualTo(Map.of("rpcbind", "127.0.0.1:" + first.address().getPort()));
	}

	@Test
	void aServerThatMovedIsFoundAtItsNewPortUnderTheSameId() throws Exception {
		FakeRpcbind host = fake(rdma(1, 20049));
		RpcbindInstanceSource source = source(host);
		ServerInstance before = source.instances().get(0);

		host.hold(rdma(1, 20052));
		ServerInstance after = source.instances().get(0);

		assertThat(after.id()).isEqualTo(before.id());
		assertThat(after.address().getPort()).isEqualTo(20052);
	}

	@Test
	void aHostWhoseRpcbindStopsAnsweringKeepsTheInstanceLastFoundThere() throws Exception {
		FakeRpcbind up = fake(rdma(1, 20049));
		FakeRpcbind goingAway = fake(rdma(1, 20050));
		RpcbindInstanceSource source = source(up, goingAway);
		assertThat(source.instances()).hasSize(2);

		goingAway.close();

		assertThat(source.instances()).extracting((instance) -> instance.address().getPort())
			.containsExactly(20049, 20050);
	}

	@Test
	void aHostThatNoLongerMapsTheProgramLosesItsInstance() throws Exception {
		FakeRpcbind staying = fake(rdma(1, 20049));
		FakeRpcbind unregistering = fake(rdma(1, 20050));
		RpcbindInstanceSource source = source(staying, unregistering);
		assertThat(source.instances()).hasSize(2);

		unregistering.hold();

		assertThat(source.instances()).extracting((instance) -> instance.address().getPort()).containsExactly(20049);
	}

	@Test
	void withNoHostMappingTheProgramEachHostsReasonIsGiven() throws Exception {
		FakeRpcbind otherVersion = fake(rdma(2, 20049));
		FakeRpcbind gone = fake();
		gone.close();

		assertThatExceptionOfType(RpcbindLookupException.class).isThrownBy(() -> source(otherVersion, gone).instances())
			.withMessageContaining("No rpcbind of the 2 hosts asked maps program 0x" + Integer.toHexString(PROGRAM) + " version 1")
			.withMessageContaining("it has only version 2 over rdma")
			.withMessageContaining("rpcbind is not reachable at 127.0.0.1:" + gone.address().getPort())
			.satisfies((ex) -> assertThat(ex.getSuppressed()).hasSize(2));
	}

	@Test
	void aSingleHostWithoutTheProgramFailsWithItsOwnReason() throws Exception {
		FakeRpcbind empty = fake();

		assertThatExceptionOfType(ProgramNotRegisteredException.class).isThrownBy(() -> source(empty).instances())
			.withMessageContaining("with rpcbind at 127.0.0.1:" + empty.address().getPort())
			.withMessageContaining("it has no mapping of that program at all");
	}

	@Test
	void anEjectionTellsTheSubscribersOnAThreadOfTheSource() throws Exception {
		RpcbindInstanceSource source = source(fake(rdma(1, 20049)));
		CountDownLatch told = new CountDownLatch(1);
		AtomicReference<Thread> teller = new AtomicReference<>();
		source.subscribe(() -> {
			teller.set(Thread.currentThread());
			told.countDown();
		});

		source.ejected(source.instances().get(0));

		assertThat(told.await(10, TimeUnit.SECONDS)).as("the subscriber was told").isTrue();
		assertThat(teller.get()).isNotSameAs(Thread.currentThread());
		assertThat(teller.get().getName()).isEqualTo("rpcrdma-rpcbind-lookup");
	}

	@Test
	void noHostOrTheSameHostTwiceIsRefused() throws Exception {
		InetSocketAddress host = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 111);
		RpcbindResolver resolver = new RpcbindResolver(TIMEOUT);
		assertThatIllegalArgumentException().isThrownBy(() -> new RpcbindInstanceSource(List.of(), PROGRAM, 1, resolver))
			.withMessageContaining("at least one rpcbind address");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RpcbindInstanceSource(List.of(host, host), PROGRAM, 1, resolver))
			.withMessageContaining("list a host twice");
	}

	/** Answers every DUMP on every connection with what it holds now, until closed. */
	private static final class FakeRpcbind implements AutoCloseable {

		private final ServerSocket server;

		private volatile List<RpcbindMapping> held;

		FakeRpcbind(List<RpcbindMapping> held) throws IOException {
			this.held = held;
			this.server = new ServerSocket(0, 8, InetAddress.getByName("127.0.0.1"));
			Thread thread = new Thread(this::serve, "fake-rpcbind");
			thread.setDaemon(true);
			thread.start();
		}

		InetSocketAddress address() {
			return new InetSocketAddress(this.server.getInetAddress(), this.server.getLocalPort());
		}

		void hold(RpcbindMapping... mappings) {
			this.held = List.of(mappings);
		}

		private void serve() {
			while (!this.server.isClosed()) {
				try (Socket socket = this.server.accept()) {
					DataInputStream in = new DataInputStream(socket.getInputStream());
					int length = in.readInt() & 0x7FFF_FFFF;
					byte[] call = new byte[length];
					in.readFully(call);
					OutputStream out = socket.getOutputStream();
					out.write(dumpReply(ByteBuffer.wrap(call).getInt()));
					out.flush();
				}
				catch (IOException ex) {
					// Closed by the test, or the client went: take the next connection if any.
				}
			}
		}

		/** RFC 1833 §2.1 rpcblist_ptr: TRUE before each mapping, FALSE at the end. */
		private byte[] dumpReply(int xid) {
			ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
			XdrEncoder encoder = new XdrEncoder(buffer);
			int header = encoder.reserveInt();
			RpcMessageCodec.encodeSuccessHeader(xid, encoder);
			for (RpcbindMapping mapping : this.held) {
				encoder.writeBoolean(true)
					.writeInt(mapping.program())
					.writeInt(mapping.version())
					.writeString(mapping.netid())
					.writeString(mapping.address())
					.writeString(mapping.owner());
			}
			encoder.writeBoolean(false);
			encoder.patchInt(header, RecordMarking.LAST_FRAGMENT | (buffer.position() - 4));
			byte[] bytes = new byte[buffer.position()];
			buffer.flip().get(bytes);
			return bytes;
		}

		@Override
		public void close() throws IOException {
			this.server.close();
		}

	}

}
