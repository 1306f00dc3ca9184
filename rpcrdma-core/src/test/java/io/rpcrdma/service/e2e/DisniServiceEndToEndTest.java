package io.rpcrdma.service.e2e;

import java.net.InetSocketAddress;

import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.disni.DisniTestDevice;

/**
 * {@link ServiceEndToEndTests} over the {@code disni} provider, client and server on one RDMA
 * device: calls, exceptions and bulk data from 1 KiB to 64 MiB both ways through Read, Write and
 * Reply chunks on real verbs. Skipped where DiSNI cannot run; the interop lab runs it in its
 * guest on Linux's siw and Soft-RoCE devices (DisniLabTest, docs/interop.md).
 */
@ExtendWith(DisniTestDevice.Available.class)
class DisniServiceEndToEndTest extends ServiceEndToEndTests {

	@Override
	protected RdmaProvider openProvider() {
		return DisniTestDevice.open();
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(DisniTestDevice.address(), 0);
	}

}
