package io.rpcrdma.spring.boot.autoconfigure.provider;

import java.util.ArrayList;
import java.util.List;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.SizeClass;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaTransportConfigs;
import io.rpcrdma.transport.TransportConfig;

/**
 * Builds the pool settings from {@code rpcrdma.memory.*}: receive and send buffers as large
 * as the largest inline threshold any server or client configuration uses (RFC 8166 §3.3.2:
 * a receive buffer holds a whole inline message), and bulk buffers in powers of two between
 * the configured smallest and largest chunk.
 */
final class MemoryPoolConfigs {

	private MemoryPoolConfigs() {
	}

	static MemoryPoolConfig from(RpcRdmaProperties properties) {
		RpcRdmaProperties.Memory memory = properties.getMemory();
		int inline = inlineBufferSize(properties);
		int smallest = (int) memory.getSmallestChunk().toBytes();
		int largest = (int) memory.getLargestChunk().toBytes();
		try {
			MemoryPoolConfig defaults = MemoryPoolConfig.defaults(inline);
			List<SizeClass> classes = new ArrayList<>();
			for (SizeClass sizeClass : defaults.sizeClasses()) {
				if (sizeClass.role() == BufferRole.RECEIVE || sizeClass.role() == BufferRole.SEND) {
					classes.add(sizeClass);
				}
			}
			for (BufferRole role : List.of(BufferRole.READ_CHUNK, BufferRole.WRITE_CHUNK, BufferRole.LOCAL_BULK)) {
				classes.addAll(SizeClass.powersOfTwo(role, smallest, largest));
			}
			return defaults.withSizeClasses(classes)
				.withSlabSize((int) memory.getSlabSize().toBytes())
				.withMaxRegisteredBytes(memory.getMaxRegistered().toBytes())
				.withMaxReceiveBytes(memory.getMaxReceive().toBytes())
				.withLeaseTimeout(memory.getWaitTimeout())
				.withLeakTracking(memory.isLeakTracking());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("The rpcrdma.memory.* settings do not fit together: " + ex.getMessage()
					+ " (slab-size, smallest-chunk, largest-chunk, max-registered and max-receive map to these settings)", ex);
		}
	}

	private static int inlineBufferSize(RpcRdmaProperties properties) {
		RpcRdmaProperties.Server server = properties.getServer();
		TransportConfig serverTransport = RpcRdmaTransportConfigs.of(server.getVersions(), server.getInlineThresholdV1(),
				server.getInlineThresholdV2(), TransportConfig.DEFAULT_CREDITS, server.getCredits(), null);
		int size = serverTransport.receiveBufferSize();
		for (RpcRdmaProperties.Client client : properties.getClient().values()) {
			TransportConfig clientTransport = RpcRdmaTransportConfigs.of(client.getVersions(),
					client.getInlineThresholdV1(), client.getInlineThresholdV2(), client.getCredits(),
					TransportConfig.DEFAULT_CREDITS, client.getConnectTimeout());
			size = Math.max(size, clientTransport.receiveBufferSize());
		}
		return size;
	}

}
