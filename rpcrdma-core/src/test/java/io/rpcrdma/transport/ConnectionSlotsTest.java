package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

/**
 * How a server's connection slots key and count requesters: by IP address, port left out,
 * and requesters whose address the provider could not tell under one shared key, so that
 * they neither escape the per-peer cap nor fail the accept path.
 */
class ConnectionSlotsTest {

	@Test
	void connectionsFromOneAddressShareItsCapWhateverTheirPorts() throws Exception {
		ConnectionSlots slots = new ConnectionSlots(new ConnectionLimits(2, 10));
		InetAddress host = InetAddress.getByName("127.0.0.1");
		assertThat(slots.take(ConnectionSlots.peer(new InetSocketAddress(host, 1000)))).isNull();
		assertThat(slots.take(ConnectionSlots.peer(new InetSocketAddress(host, 1001)))).isNull();
		assertThat(slots.take(ConnectionSlots.peer(new InetSocketAddress(host, 1002))))
			.isEqualTo(ConnectionSlots.Refusal.PEER_CAP);
		assertThat(slots.held()).isEqualTo(2);
	}

	@Test
	void requestersWithoutAnAddressShareOneCapAndGiveTheirSlotsBack() {
		ConnectionSlots slots = new ConnectionSlots(new ConnectionLimits(1, 10));
		Object unknown = ConnectionSlots.peer(null);
		assertThat(unknown).isEqualTo(ConnectionSlots.UNKNOWN_PEER);
		assertThat(slots.take(unknown)).isNull();
		assertThat(slots.take(ConnectionSlots.peer(null))).isEqualTo(ConnectionSlots.Refusal.PEER_CAP);
		slots.release(unknown);
		assertThat(slots.held()).isZero();
		assertThat(slots.take(unknown)).isNull();
	}

}
