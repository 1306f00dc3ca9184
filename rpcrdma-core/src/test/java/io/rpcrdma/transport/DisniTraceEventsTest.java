package io.rpcrdma.transport;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.disni.DisniTestDevice;

/**
 * {@link TraceEventsTests} over the {@code disni} provider on a real verbs device, client and
 * server on one device. Skipped where DiSNI cannot run; the interop lab runs it in its guest on
 * Linux's siw and Soft-RoCE devices (DisniLabTest, docs/interop.md).
 */
@ExtendWith(DisniTestDevice.Available.class)
class DisniTraceEventsTest extends TraceEventsTests {

	@Override
	protected RdmaProvider openProvider() {
		return DisniTestDevice.open();
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(DisniTestDevice.address(), 0);
	}

}
