package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.conformance.Completion;
import io.rpcrdma.verbs.conformance.Endpoint;

/**
 * Linux's siw installs a passive connection's receive upcall only after it has sent the MPA
 * Reply, so a first message that reaches its socket in between waits, unread, for the next
 * segment: Linux's rping server then never saw our client's first Send (the lab caught it, 2
 * times in 450: docs/interop.md). The initiator therefore nudges a peer that stays silent after
 * its first message with a zero-length RDMA Read Request (RFC 5040 §4.4), and stops once the
 * peer has sent anything. A hand-written peer here holds what arrives first as Linux does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SiwFirstMessageNudgeTest {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	@Test
	void aFirstMessageThePeerLeavesUnreadUntilTheNextSegmentStillArrives() throws Exception {
		try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				RdmaProvider provider = RdmaProviders.open("siw")) {
			CompletableFuture<SiwWirePeer> accepted = CompletableFuture.supplyAsync(() -> accept(listener));
			Endpoint client = new Endpoint(provider, null, DEADLINE, UnaryOperator.identity());
			MemoryRegion inbox = client.register(64, 0, AccessFlag.LOCAL_WRITE);
			MemoryRegion outbox = client.register(64, 0);
			client.postReceive(1, inbox);
			client.connection = provider
				.connect(client.qp, ConnectParameters.to((InetSocketAddress) listener.getLocalSocketAddress()))
				.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
			try (SiwWirePeer server = accepted.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
				send(client, outbox, "first call");

				server.holdFirstArrival();
				assertThat(text(server.nextMessage())).as("the first message, read once a nudge arrived")
					.isEqualTo("first call");
				int nudged = server.zeroLengthReadRequests();
				assertThat(nudged).as("nudges").isBetween(1, RdmapTransmitter.MAX_NUDGES);

				// The peer answered the nudges and now speaks.
				server.send(ByteBuffer.wrap("first reply".getBytes(StandardCharsets.US_ASCII)));
				Completion reply = client.receives.next();
				assertThat(reply.status().isSuccess()).isTrue();
				send(client, outbox, "second call");
				assertThat(text(server.nextMessage())).isEqualTo("second call");
				RdmapTransmitter transmitter = ((SiwConnection) client.connection).transmitter();
				assertThat(transmitter.nudgesSent()).as("nudges sent, all seen before the second call")
					.isEqualTo(server.zeroLengthReadRequests())
					.isLessThanOrEqualTo(RdmapTransmitter.MAX_NUDGES);
			}
			finally {
				client.connection.close();
			}
		}
	}

	private static void send(Endpoint endpoint, MemoryRegion outbox, String text) {
		byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
		outbox.buffer().clear().put(bytes);
		Completion sent = endpoint.postAndAwait(SendWorkRequest.send(7, new ScatterGatherEntry(outbox, 0, bytes.length)));
		assertThat(sent.status().isSuccess()).as("Send of '%s'", text).isTrue();
	}

	private static String text(ByteBuffer message) {
		byte[] bytes = new byte[message.remaining()];
		message.duplicate().get(bytes);
		return new String(bytes, StandardCharsets.US_ASCII);
	}

	private static SiwWirePeer accept(ServerSocket listener) {
		try {
			return SiwWirePeer.accept(listener, DEADLINE);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
