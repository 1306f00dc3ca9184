package io.rpcrdma.verbs.siw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.siw.wire.CrcPolicy;
import io.rpcrdma.verbs.siw.wire.MpaCodec;
import io.rpcrdma.verbs.siw.wire.MpaIrdOrd;
import io.rpcrdma.verbs.siw.wire.MpaNegotiator;

/**
 * Bytes a requester sends right behind its MPA Request (FPDUs an initiator may send once it has
 * its MPA Reply, and a hostile one sends at once) are kept in a stream buffer for the receive path; a request that ends without a
 * connection gives that buffer back, so that a peer cannot drain the provider's buffers one
 * rejected request at a time.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SiwHandshakeBuffersTest {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	@Test
	void aRejectedRequestGivesBackTheBufferItsEarlyBytesWereKeptIn() throws Exception {
		SiwProvider provider = (SiwProvider) RdmaProviders.open("siw", RdmaProviderConfig.defaults());
		try {
			StreamBuffers buffers = provider.streamBuffers();
			AtomicInteger lentAtRequest = new AtomicInteger(-1);
			CountDownLatch rejected = new CountDownLatch(1);
			RdmaListener listener = provider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
					(request) -> {
						lentAtRequest.set(buffers.lent());
						request.reject(PrivateData.EMPTY);
						rejected.countDown();
					});
			try (Socket socket = new Socket()) {
				socket.setTcpNoDelay(true);
				socket.connect(listener.localAddress());
				ByteBuffer request = new MpaCodec()
					.encode(new MpaNegotiator(CrcPolicy.OFF_UNLESS_ASKED).request(MpaIrdOrd.of(4, 4), new byte[0]));
				byte[] requestAndEarlyBytes = new byte[request.remaining() + 16];
				request.get(requestAndEarlyBytes, 0, request.remaining());
				OutputStream out = socket.getOutputStream();
				out.write(requestAndEarlyBytes);
				out.flush();
				assertThat(rejected.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)).as("the request rejected").isTrue();
				assertThat(lentAtRequest).as("the early bytes kept in a stream buffer").hasValue(1);

				long end = System.nanoTime() + DEADLINE.toNanos();
				while (buffers.lent() > 0 && System.nanoTime() - end < 0) {
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
				}
				assertThat(buffers.lent()).as("stream buffers still lent once the request is answered").isZero();
			}
			finally {
				listener.close();
			}
		}
		finally {
			provider.close();
		}
	}

}
