package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.protocol.Rfc8797PrivateData;
import io.rpcrdma.verbs.ConnectionRejectedException;
import io.rpcrdma.verbs.ConnectionRequest;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.disni.DisniTestDevice;

/**
 * RFC 8797 private data and rdma_reject over the {@code disni} provider on a real verbs
 * device, through rpcrdma's own natives in libdisni (issue #37): both sides exchange their
 * inline sizes in the connection manager's private data and skip in-band CCP, and a refused
 * connection is a CM reject carrying the responder's private data (the emulated reject of a
 * stock libdisni carries none). Skipped where DiSNI cannot run; the interop lab runs it in
 * its guest on siw0 and rxe0 (DisniLabTest).
 */
@ExtendWith(DisniTestDevice.Available.class)
class DisniPrivateDataTest extends RpcRdmaTransportKit {

	@Override
	protected RdmaProvider openProvider() {
		return DisniTestDevice.open();
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(DisniTestDevice.address(), 0);
	}

	@Test
	void privateDataSetsTheInlineThresholdsBothWaysWithoutCcp() throws Exception {
		assertThat(this.clientProvider.capabilities().privateDataExchange()).isTrue();
		// Different receive sizes, so that each side's threshold can only come from the other's
		// private data: neither its own size nor the version's 1024-byte default.
		RpcRdmaServer server = echoServer(v1Only().withInlineThresholds(3072, 3072));
		RpcRdmaClientConnection client = client(server, v1Only().withInlineThresholds(4096, 4096));

		assertThat(client.negotiatedInBand()).isFalse();
		assertThat(client.inlineSizes().sendThreshold(1)).isEqualTo(3072);
		byte[] data = RpcWorkload.pattern(2500, 3);
		assertThat(RpcWorkload.opaqueResult(await(client.call(RpcWorkload.echo(11, data, false, 0, 0)))))
			.isEqualTo(data);
		// One message, the call: no CONF_RDMA went first.
		assertThat(client.stats().inlineMessages()).isEqualTo(1);
		assertThat(client.stats().positionZeroChunksSent()).isZero();
		RpcRdmaServerConnection connection = onlyConnection(server);
		assertThat(connection.negotiatedInBand()).isFalse();
		assertThat(connection.inlineSizes().sendThreshold(1)).isEqualTo(3072);
		assertThat(connection.stats().replyChunksFilled()).isZero();
	}

	@Test
	void aRefusedConnectionIsACmRejectCarryingTheRespondersPrivateData() throws Exception {
		byte[] sizes = Rfc8797PrivateData.of(false, 2048, 2048).encode();
		CountDownLatch asked = new CountDownLatch(1);
		RdmaListener listener = closeAfterTest(this.serverProvider.listen(listenAddress(), (ConnectionRequest request) -> {
			asked.countDown();
			request.reject(PrivateData.of(sizes));
		}));
		// Through the verbs SPI, which reports the connection manager's event as it came.
		Throwable failure = catchThrowable(() -> RawPeer.connect(this.clientProvider, listener.localAddress(),
				PrivateData.of(Rfc8797PrivateData.of(true, 4096, 4096).encode()), deadline()));

		assertThat(asked.await(deadline().toMillis(), TimeUnit.MILLISECONDS)).isTrue();
		while (!(failure instanceof ConnectionRejectedException) && failure != null && failure.getCause() != null) {
			failure = failure.getCause();
		}
		assertThat(failure).isInstanceOf(ConnectionRejectedException.class);
		// InfiniBand's CM pads the REJ's private data with zeros; iWARP's MPA carries it as sent.
		byte[] received = ((ConnectionRejectedException) failure).privateData().bytes();
		assertThat(received.length).isGreaterThanOrEqualTo(sizes.length);
		assertThat(Arrays.copyOf(received, sizes.length)).isEqualTo(sizes);
	}

}
