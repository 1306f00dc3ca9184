package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectTimeoutException;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.conformance.Endpoint;
import io.rpcrdma.verbs.siw.wire.CrcPolicy;
import io.rpcrdma.verbs.siw.wire.MpaCodec;
import io.rpcrdma.verbs.siw.wire.MpaFrame;
import io.rpcrdma.verbs.siw.wire.MpaIrdOrd;
import io.rpcrdma.verbs.siw.wire.MpaNegotiator;

/**
 * The initiator's side of the MPA exchange has a deadline too (RFC 5044 §7.1): a responder
 * that accepts the TCP connection and never completes its MPA Reply, sending nothing or part of
 * the frame, fails the connect at the connect timeout with {@link ConnectTimeoutException}, and
 * the queue pair is left in error. (The responder's side, {@code siw.mpa-timeout-millis}, is
 * {@link SiwPendingConnectionLimitTest}'s; neither side waits for an RFC 6581 RTR frame, since
 * this provider never asks for peer-to-peer mode and never picks an RTR in its Reply.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SiwMpaReplyDeadlineTest {

	private static final Duration CONNECT_TIMEOUT = Duration.ofMillis(800);

	private static final Duration SLACK = Duration.ofSeconds(5);

	@Test
	void aResponderThatNeverRepliesFailsTheConnectAtItsTimeout() throws Exception {
		assertConnectTimesOut(0);
	}

	@Test
	void aResponderThatSendsPartOfItsReplyFailsTheConnectAtTheSameTimeout() throws Exception {
		assertConnectTimesOut(12);
	}

	/** @param replyBytes how much of an accepting MPA Reply the responder sends, then nothing */
	private static void assertConnectTimesOut(int replyBytes) throws Exception {
		try (ServerSocket responder = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				RdmaProvider provider = RdmaProviders.open("siw")) {
			CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> answerPartly(responder, replyBytes));
			Endpoint client = new Endpoint(provider, null, SLACK, UnaryOperator.identity());
			long start = System.nanoTime();
			CompletableFuture<RdmaConnection> connecting = provider.connect(client.qp,
					ConnectParameters.to((InetSocketAddress) responder.getLocalSocketAddress()).withTimeout(CONNECT_TIMEOUT));
			Throwable failure = null;
			try {
				connecting.get(CONNECT_TIMEOUT.plus(SLACK).toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (ExecutionException ex) {
				failure = ex.getCause();
			}
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			assertThat(failure).isInstanceOf(ConnectTimeoutException.class);
			assertThat(took).isGreaterThanOrEqualTo(CONNECT_TIMEOUT).isLessThan(CONNECT_TIMEOUT.plus(SLACK));
			assertThat(client.qp.state()).isEqualTo(io.rpcrdma.verbs.QueuePairState.ERROR);
			accepted.get(SLACK.toMillis(), TimeUnit.MILLISECONDS).close();
		}
	}

	/** Reads the whole MPA Request, then sends the first bytes of an accepting Reply. */
	private static Socket answerPartly(ServerSocket responder, int replyBytes) {
		try {
			Socket socket = responder.accept();
			InputStream in = socket.getInputStream();
			MpaCodec codec = new MpaCodec();
			ByteBuffer received = ByteBuffer.allocate(MpaCodec.HEADER_LENGTH + 512);
			java.util.Optional<MpaFrame> request = java.util.Optional.empty();
			while (request.isEmpty()) {
				int b = in.read();
				assertThat(b).as("MPA Request byte").isNotNegative();
				received.put((byte) b).flip();
				request = codec.decode(received, MpaFrame.Kind.REQUEST);
				received.compact();
			}
			MpaFrame reply = new MpaNegotiator(CrcPolicy.OFF_UNLESS_ASKED).acceptReply(request.get(), MpaIrdOrd.of(4, 4),
					new byte[0]);
			byte[] bytes = codec.encode(reply).array();
			socket.getOutputStream().write(bytes, 0, replyBytes);
			return socket;
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

}
