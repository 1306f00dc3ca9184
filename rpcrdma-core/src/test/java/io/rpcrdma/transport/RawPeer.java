package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.rpcrdma.protocol.TransportHeader;
import io.rpcrdma.protocol.TransportHeaderEncoder;
import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.conformance.Completion;
import io.rpcrdma.verbs.conformance.Endpoint;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * A peer driven by hand over raw verbs, to send what a well-behaved transport never would
 * (public for the RPC layer's hostile-peer tests, which send raw calls to a real server).
 */
public final class RawPeer {

	static final int RECEIVE_SIZE = 8192;

	static final int RECEIVES = 16;

	final Endpoint endpoint;

	private final MemoryRegion[] inbox = new MemoryRegion[RECEIVES];

	private long nextWrId = 1000;

	private RawPeer(RdmaProvider provider, Duration deadline) {
		this.endpoint = new Endpoint(provider, null, deadline, (attributes) -> attributes);
		for (int i = 0; i < RECEIVES; i++) {
			this.inbox[i] = this.endpoint.register(RECEIVE_SIZE, 0, AccessFlag.LOCAL_WRITE);
			this.endpoint.postReceive(i, this.inbox[i]);
		}
	}

	public static RawPeer connect(RdmaProvider provider, InetSocketAddress address, PrivateData privateData, Duration deadline)
			throws Exception {
		RawPeer peer = new RawPeer(provider, deadline);
		peer.endpoint.connection = provider
			.connect(peer.endpoint.qp, new ConnectParameters(address, privateData, deadline, peer.endpoint.events))
			.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
		return peer;
	}

	/** A listener whose first request is accepted by a raw peer. */
	static RdmaListener listen(RdmaProvider provider, InetSocketAddress address, PrivateData privateData,
			Duration deadline, CompletableFuture<RawPeer> accepted) {
		return provider.listen(address, (request) -> {
			RawPeer peer = new RawPeer(provider, deadline);
			peer.endpoint.connection = request.accept(peer.endpoint.qp, privateData, peer.endpoint.events);
			accepted.complete(peer);
		});
	}

	/** Sends bytes as one Send and waits for its completion. */
	public void send(ByteBuffer bytes) {
		MemoryRegion region = this.endpoint.register(Math.max(1, bytes.remaining()), 0);
		region.buffer().put(0, bytes, bytes.position(), bytes.remaining());
		long wrId = this.nextWrId++;
		this.endpoint.qp.postSend(SendWorkRequest.send(wrId, ScatterGatherEntry.of(region, 0, bytes.remaining())));
		Completion completion = this.endpoint.sends.next();
		assertThat(completion.wrId()).isEqualTo(wrId);
	}

	/** Sends bytes as one Send With Invalidate naming an STag of the peer's, and waits for its completion. */
	void sendWithInvalidate(ByteBuffer bytes, int stag) {
		MemoryRegion region = this.endpoint.register(Math.max(1, bytes.remaining()), 0);
		region.buffer().put(0, bytes, bytes.position(), bytes.remaining());
		long wrId = this.nextWrId++;
		this.endpoint.qp.postSend(
				SendWorkRequest.sendWithInvalidate(wrId, stag, ScatterGatherEntry.of(region, 0, bytes.remaining())));
		this.endpoint.sends.next();
	}

	/** Sends a header and an optional payload. */
	public void send(TransportHeader header, ByteBuffer payload) {
		int length = TransportHeaderEncoder.encodedLength(header) + ((payload != null) ? payload.remaining() : 0);
		ByteBuffer out = ByteBuffer.allocate(length);
		TransportHeaderEncoder.encode(header, new XdrEncoder(out));
		if (payload != null) {
			out.put(payload.duplicate());
		}
		send(out.flip());
	}

	/** The next message received, its receive reposted. */
	public ByteBuffer receive() {
		Completion completion = this.endpoint.receives.next();
		assertThat(completion.status()).as("receive status").isEqualTo(CompletionStatus.SUCCESS);
		int index = (int) completion.wrId();
		byte[] bytes = new byte[completion.byteLength()];
		this.inbox[index].buffer().get(0, bytes);
		this.endpoint.postReceive(index, this.inbox[index]);
		return ByteBuffer.wrap(bytes);
	}

	/** RDMA-Reads from the peer; returns the completion status. */
	CompletionStatus read(RemoteAddress source, int length) {
		MemoryRegion sink = this.endpoint.register(Math.max(1, length), 0, AccessFlag.LOCAL_WRITE);
		long wrId = this.nextWrId++;
		this.endpoint.qp.postSend(SendWorkRequest.rdmaRead(wrId, source, ScatterGatherEntry.of(sink, 0, length)));
		return this.endpoint.sends.next().status();
	}

	/** Registers memory the peer may read or write. */
	MemoryRegion region(int size, AccessFlag... access) {
		return this.endpoint.register(size, 0, access);
	}

	/** Waits until the connection is down. */
	void awaitDisconnected() {
		this.endpoint.events.await(ConnectionEventType.DISCONNECTED);
	}

	public void close() {
		if (this.endpoint.connection != null) {
			this.endpoint.connection.close();
		}
	}

}
