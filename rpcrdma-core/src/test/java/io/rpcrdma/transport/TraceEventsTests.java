package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rpcrdma.transport.trace.TraceSwitch;

/**
 * The Flight Recorder events of one call (issue #37: trace events as Linux's xprtrdma and
 * svcrdma tracepoints): both ends' connect, every post and completion of the call, an
 * RDMA_ERROR on both sides, the disconnect; and none of them in a recording that does not
 * enable them. On the software providers ({@link TraceEventsTest}) and on a real verbs device
 * through {@code disni} ({@link DisniTraceEventsTest}, run by the interop lab).
 */
abstract class TraceEventsTests extends RpcRdmaTransportKit {

	private static final String[] ALL = { "io.rpcrdma.Connect", "io.rpcrdma.Disconnect", "io.rpcrdma.Post",
			"io.rpcrdma.Completion", "io.rpcrdma.RdmaError" };

	@TempDir
	Path dir;

	@Test
	void aRecordingThatEnablesThemSeesEveryStepOfOneCall() throws Exception {
		RpcRdmaServer server = echoServer(config());
		List<RecordedEvent> events;
		long requester;
		long responder;
		try (Recording recording = new Recording()) {
			for (String name : ALL) {
				recording.enable(name);
			}
			recording.start();
			assertThat(TraceSwitch.anyEnabled()).isTrue();
			RpcRdmaClientConnection client = client(server, config());
			// A 5000-byte argument in a Read chunk, which the responder pulls with an RDMA Read,
			// and its echo back in a Write chunk, which it fills with an RDMA Write.
			await(client.call(RpcWorkload.echo(0x7ace, RpcWorkload.pattern(5000, 3), true, 8192, 0)));
			requester = client.trace.number();
			RpcRdmaServerConnection serverSide = onlyConnection(server);
			responder = serverSide.trace.number();
			client.close();
			// closeFuture, not isUsable(): the connection is unusable from the first line of
			// fail(), before its Disconnect event is written; closeFuture completes after.
			await(serverSide.closeFuture);
			events = recorded(recording);
		}

		assertThat(of(events, "io.rpcrdma.Connect", requester)).singleElement()
			.satisfies((e) -> assertThat(e.getString("role")).isEqualTo("requester"))
			.satisfies((e) -> assertThat(e.getString("peer")).isEqualTo(String.valueOf(server.localAddress())));
		assertThat(of(events, "io.rpcrdma.Connect", responder)).singleElement()
			.satisfies((e) -> assertThat(e.getString("role")).isEqualTo("responder"));
		// Receives posted as credits, the call's Send, its reply received.
		assertThat(opcodes(events, "io.rpcrdma.Post", requester)).contains("RECV", "SEND");
		assertThat(opcodes(events, "io.rpcrdma.Completion", requester)).contains("RECV");
		assertThat(of(events, "io.rpcrdma.Completion", requester)).filteredOn((e) -> e.getString("opcode").equals("RECV"))
			.anySatisfy((e) -> assertThat(e.getString("status")).isEqualTo("SUCCESS"));
		// The responder received the call, read the Read chunk, wrote the Write chunk, sent the reply.
		assertThat(opcodes(events, "io.rpcrdma.Post", responder)).contains("RECV", "RDMA_READ", "RDMA_WRITE")
			// The reply's Send invalidates the requester's chunks where it may (RFC 8797 §2.2).
			.anyMatch((opcode) -> opcode.startsWith("SEND"));
		assertThat(opcodes(events, "io.rpcrdma.Completion", responder)).contains("RECV", "RDMA_READ");
		assertThat(of(events, "io.rpcrdma.Post", responder))
			.filteredOn((e) -> e.getString("opcode").equals("RDMA_READ"))
			.anySatisfy((e) -> assertThat(e.getLong("bytes")).isGreaterThanOrEqualTo(5000));
		assertThat(of(events, "io.rpcrdma.Disconnect", requester)).hasSize(1);
		assertThat(of(events, "io.rpcrdma.Disconnect", responder)).hasSize(1);
	}

	@Test
	void anRdmaErrorIsSeenSentByTheResponderAndReceivedByTheRequester() throws Exception {
		RpcRdmaServer server = server(config(), (call, replier) -> replier.replyTooLarge(1 << 20));
		List<RecordedEvent> events;
		long requester;
		long responder;
		try (Recording recording = new Recording()) {
			recording.enable("io.rpcrdma.RdmaError");
			recording.start();
			RpcRdmaClientConnection client = client(server, config());
			failure(client.call(RpcWorkload.generate(0x0e77, 1 << 20, 0, 0)));
			requester = client.trace.number();
			responder = onlyConnection(server).trace.number();
			events = recorded(recording);
		}

		assertThat(of(events, "io.rpcrdma.RdmaError", responder)).singleElement().satisfies((e) -> {
			assertThat(e.getString("direction")).isEqualTo("sent");
			assertThat(e.getInt("xid")).isEqualTo(0x0e77);
			assertThat(e.getString("error")).isEqualTo("RDMA_ERR_BAD_HEADER");
		});
		assertThat(of(events, "io.rpcrdma.RdmaError", requester)).singleElement().satisfies((e) -> {
			assertThat(e.getString("direction")).isEqualTo("received");
			assertThat(e.getInt("xid")).isEqualTo(0x0e77);
		});
		assertThat(events).noneMatch((e) -> e.getEventType().getName().equals("io.rpcrdma.Post"));
	}

	@Test
	void theJdksDefaultSettingsRecordNoneOfThem() throws Exception {
		RpcRdmaServer server = echoServer(config());
		List<RecordedEvent> events;
		try (Recording recording = new Recording(Configuration.getConfiguration("default"))) {
			recording.start();
			assertThat(TraceSwitch.anyEnabled()).isFalse();
			RpcRdmaClientConnection client = client(server, config());
			await(client.call(RpcWorkload.echo(1, new byte[16], false, 0, 0)));
			events = recorded(recording);
		}
		assertThat(events).noneMatch((e) -> e.getEventType().getName().startsWith("io.rpcrdma."));
	}

	private List<RecordedEvent> recorded(Recording recording) throws IOException {
		recording.stop();
		Path file = Files.createTempFile(this.dir, "trace", ".jfr");
		recording.dump(file);
		return RecordingFile.readAllEvents(file);
	}

	private static List<RecordedEvent> of(List<RecordedEvent> events, String name, long connection) {
		return events.stream()
			.filter((e) -> e.getEventType().getName().equals(name) && e.getLong("connection") == connection)
			.toList();
	}

	private static List<String> opcodes(List<RecordedEvent> events, String name, long connection) {
		return of(events, name, connection).stream().map((e) -> e.getString("opcode")).distinct().toList();
	}
}
