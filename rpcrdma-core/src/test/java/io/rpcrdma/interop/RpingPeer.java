package io.rpcrdma.interop;

import static io.rpcrdma.verbs.AccessFlag.LOCAL_WRITE;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_READ;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_WRITE;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.conformance.Completion;
import io.rpcrdma.verbs.conformance.Endpoint;

/**
 * rping's protocol spoken with the project's verbs, so that rdmacm-utils' {@code rping} in the
 * lab guest can be the peer of the software iWARP provider in either role. Each ping moves
 * the client's data four ways: Send (source advertisement), RDMA Read (the server pulls it),
 * Send ("go ahead"), Send (sink advertisement), RDMA Write (the server pushes it back), Send
 * ("go ahead").
 */
final class RpingPeer implements AutoCloseable {

	private final Endpoint endpoint;

	private final MemoryRegion inbox;

	private final MemoryRegion outbox;

	private final MemoryRegion source;

	private final MemoryRegion sink;

	private RpingPeer(RdmaProvider provider, int size, Duration deadline) {
		this.endpoint = new Endpoint(provider, null, deadline, UnaryOperator.identity());
		this.inbox = this.endpoint.register(RpingMessage.SIZE, 0, LOCAL_WRITE);
		this.outbox = this.endpoint.register(RpingMessage.SIZE, 0);
		this.source = this.endpoint.register(size, 0, LOCAL_WRITE, REMOTE_READ);
		this.sink = this.endpoint.register(size, 0, LOCAL_WRITE, REMOTE_WRITE);
		// iWARP has no receiver-not-ready retry: the first receive is posted before connecting.
		this.endpoint.postReceive(1, this.inbox);
	}

	/**
	 * Creates the peer's queue pair and buffers.
	 * @param provider the provider
	 * @param size rping's {@code -S}: the data buffers' size
	 * @param deadline how long any one step may take
	 * @return the peer
	 */
	static RpingPeer create(RdmaProvider provider, int size, Duration deadline) {
		return new RpingPeer(provider, size, deadline);
	}

	/**
	 * Acts as {@code rping -c}: connects, pings, checks each echo, disconnects.
	 * @param server the rping server
	 * @param count rping's {@code -C}
	 * @param advertisement changes the source buffer's advertisement (to send a bad STag)
	 * @return the echoed texts
	 * @throws Exception if a step fails
	 */
	List<String> runClient(InetSocketAddress server, int count, UnaryOperator<RpingMessage> advertisement)
			throws Exception {
		this.endpoint.connection = this.endpoint.provider
			.connect(this.endpoint.qp, ConnectParameters.to(server).withListener(this.endpoint.events))
			.get(30, TimeUnit.SECONDS);
		List<String> echoes = new ArrayList<>();
		for (int ping = 0; ping < count; ping++) {
			RpingData.fill(this.source.buffer(), ping);
			send(advertisement.apply(RpingMessage.describing(this.source)));
			awaitReceive();
			send(RpingMessage.describing(this.sink));
			awaitReceive();
			String echo = RpingData.text(this.sink.buffer());
			if (!echo.equals(RpingData.text(this.source.buffer()))) {
				throw new AssertionError("ping " + ping + " came back as '" + echo + "'");
			}
			echoes.add(echo);
		}
		this.endpoint.connection.disconnect();
		return echoes;
	}

	/**
	 * Acts as {@code rping -s} for one connection, until the client disconnects.
	 * @param listener where to listen
	 * @param echoStag changes the STag the echo is RDMA Written with (to write with a bad one)
	 * @return the texts read from the client
	 * @throws Exception if a step fails
	 */
	ServedPings serve(InetSocketAddress listener, UnaryOperator<Integer> echoStag) throws Exception {
		CompletableFuture<RdmaConnection> accepted = new CompletableFuture<>();
		try (RdmaListener ignored = this.endpoint.provider.listen(listener,
				(request) -> accepted.complete(request.accept(this.endpoint.qp, PrivateData.EMPTY, this.endpoint.events)))) {
			this.endpoint.connection = accepted.get(120, TimeUnit.SECONDS);
		}
		List<String> pings = new ArrayList<>();
		while (true) {
			Completion advertised = this.endpoint.receives.next();
			if (!advertised.status().isSuccess()) {
				return new ServedPings(pings, null);
			}
			RpingMessage from = RpingMessage.decode(this.inbox.buffer());
			this.endpoint.postReceive(1, this.inbox);
			Completion read = post(SendWorkRequest.rdmaRead(2, new RemoteAddress(from.address(), from.stag()),
					new ScatterGatherEntry(this.source, 0, Math.min(from.length(), this.source.length()))));
			if (!read.status().isSuccess()) {
				return new ServedPings(pings, read);
			}
			String text = RpingData.text(this.source.buffer());
			pings.add(text);
			goAhead();
			Completion sinkAdvertised = this.endpoint.receives.next();
			if (!sinkAdvertised.status().isSuccess()) {
				return new ServedPings(pings, sinkAdvertised);
			}
			RpingMessage to = RpingMessage.decode(this.inbox.buffer());
			this.endpoint.postReceive(1, this.inbox);
			Completion write = post(SendWorkRequest.rdmaWrite(3, new RemoteAddress(to.address(), echoStag.apply(to.stag())),
					new ScatterGatherEntry(this.source, 0, text.length() + 1)));
			if (!write.status().isSuccess()) {
				return new ServedPings(pings, write);
			}
			goAhead();
		}
	}

	/**
	 * What an rping server saw.
	 *
	 * @param pings the client's texts, in order
	 * @param failure the completion that failed, or {@code null} if the client disconnected
	 */
	record ServedPings(List<String> pings, Completion failure) {
	}

	/**
	 * The endpoint, for its events.
	 * @return the endpoint
	 */
	Endpoint endpoint() {
		return this.endpoint;
	}

	private void send(RpingMessage message) {
		message.encodeInto(this.outbox.buffer());
		Completion sent = post(SendWorkRequest.send(4, new ScatterGatherEntry(this.outbox, 0, RpingMessage.SIZE)));
		if (!sent.status().isSuccess()) {
			throw new AssertionError("Send failed: " + sent);
		}
	}

	/**
	 * The server's "go ahead", unsignaled: after the last one the client disconnects at once,
	 * so a completion that waited for proof of delivery would be flushed. A failure still
	 * shows, as the connection's end.
	 */
	private void goAhead() {
		new RpingMessage(0, 0, 0).encodeInto(this.outbox.buffer());
		this.endpoint.qp.postSend(SendWorkRequest.send(5, new ScatterGatherEntry(this.outbox, 0, RpingMessage.SIZE))
			.unsignaled());
	}

	private Completion post(SendWorkRequest request) {
		this.endpoint.qp.postSend(request);
		return this.endpoint.sends.next();
	}

	private void awaitReceive() {
		Completion received = this.endpoint.receives.next();
		if (!received.status().isSuccess() || received.byteLength() != RpingMessage.SIZE) {
			throw new AssertionError("rping expects a 16-byte Send, got " + received);
		}
		this.endpoint.postReceive(1, this.inbox);
	}

	@Override
	public void close() {
		if (this.endpoint.connection != null) {
			this.endpoint.connection.close();
		}
		else {
			this.endpoint.qp.close();
		}
		for (MemoryRegion region : List.of(this.inbox, this.outbox, this.source, this.sink)) {
			region.deregister();
		}
		this.endpoint.sendCq.close();
		this.endpoint.recvCq.close();
		this.endpoint.pd.close();
	}

}
