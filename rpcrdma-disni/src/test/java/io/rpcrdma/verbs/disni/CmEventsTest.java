package io.rpcrdma.verbs.disni;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.ibm.disni.verbs.RdmaCmEvent;

import io.rpcrdma.verbs.ConnectTimeoutException;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.ConnectionFailedException;
import io.rpcrdma.verbs.ConnectionRefusedException;
import io.rpcrdma.verbs.ConnectionRejectedException;
import io.rpcrdma.verbs.PrivateData;

class CmEventsTest {

	private final InetSocketAddress peer = new InetSocketAddress("192.0.2.7", 20049);

	@Test
	void eventNumbersAreDisnisOrdinals() {
		for (RdmaCmEvent.EventType type : RdmaCmEvent.EventType.values()) {
			assertThat(CmEvents.name(type.ordinal())).isEqualTo(type.name());
		}
		assertThat(CmEvents.REJECTED).isEqualTo(RdmaCmEvent.EventType.RDMA_CM_EVENT_REJECTED.ordinal());
		assertThat(CmEvents.ESTABLISHED).isEqualTo(RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED.ordinal());
		assertThat(CmEvents.DISCONNECTED).isEqualTo(RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED.ordinal());
		assertThat(CmEvents.CONNECT_REQUEST).isEqualTo(RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_REQUEST.ordinal());
		assertThat(CmEvents.TIMEWAIT_EXIT).isEqualTo(RdmaCmEvent.EventType.RDMA_CM_EVENT_TIMEWAIT_EXIT.ordinal());
	}

	@Test
	void everyErrorEventEndsAConnectAttemptInsteadOfLeavingItWaiting() {
		for (int event : new int[] { CmEvents.ADDR_ERROR, CmEvents.ROUTE_ERROR, CmEvents.CONNECT_ERROR,
				CmEvents.UNREACHABLE, CmEvents.REJECTED, CmEvents.DISCONNECTED, CmEvents.DEVICE_REMOVAL }) {
			assertThat(CmEvents.failsConnectAttempt(event)).as(CmEvents.name(event)).isTrue();
		}
		for (int event : new int[] { CmEvents.ADDR_RESOLVED, CmEvents.ROUTE_RESOLVED, CmEvents.ESTABLISHED,
				CmEvents.TIMEWAIT_EXIT, CmEvents.ADDR_CHANGE }) {
			assertThat(CmEvents.failsConnectAttempt(event)).as(CmEvents.name(event)).isFalse();
		}
	}

	@Test
	void aRejectIsARejectionWithoutPrivateDataThatSaysWhyNoneIsThere() {
		ConnectionFailedException failure = CmEvents.connectFailure(CmEvents.REJECTED, this.peer);
		assertThat(failure).isInstanceOf(ConnectionRejectedException.class);
		assertThat(failure.eventType()).isEqualTo(ConnectionEventType.REJECTED);
		assertThat(((ConnectionRejectedException) failure).privateData()).isEqualTo(PrivateData.EMPTY);
		assertThat(failure).hasMessageContaining("192.0.2.7:20049")
			.hasMessageContaining("nothing listens on that port")
			.hasMessageContaining("it came without private data");
		// With rpcrdma's connection-manager natives the reject's private data is read: it is kept.
		PrivateData data = PrivateData.of(new byte[] { (byte) 0xf6, (byte) 0xab, 0x0e, 0x18, 1, 0, 3, 3 });
		ConnectionFailedException withData = CmEvents.connectFailure(CmEvents.REJECTED, this.peer, data);
		assertThat(((ConnectionRejectedException) withData).privateData()).isEqualTo(data);
		assertThat(withData).hasMessageContaining("this one with 8 bytes of private data");
	}

	@Test
	void addressRouteAndReachabilityErrorsAreRefusalsNamingTheEvent() {
		for (int event : new int[] { CmEvents.ADDR_ERROR, CmEvents.ROUTE_ERROR, CmEvents.UNREACHABLE,
				CmEvents.CONNECT_ERROR }) {
			ConnectionFailedException failure = CmEvents.connectFailure(event, this.peer);
			assertThat(failure).isInstanceOf(ConnectionRefusedException.class)
				.hasMessageContaining(CmEvents.name(event))
				.hasMessageContaining("192.0.2.7:20049");
			assertThat(failure.eventType()).isEqualTo(ConnectionEventType.CONNECT_ERROR);
		}
		assertThat(CmEvents.connectFailure(CmEvents.ADDR_ERROR, this.peer)).hasMessageContaining("rdma link");
	}

	@Test
	void theProvidersOwnTimeoutIsAConnectTimeout() {
		ConnectTimeoutException timeout = CmEvents.connectTimeout(this.peer, Duration.ofMillis(300));
		assertThat(timeout.eventType()).isEqualTo(ConnectionEventType.TIMEOUT);
		assertThat(timeout).hasMessageContaining("within 300 ms");
	}

}
