/**
 * Registered memory for the RPC-over-RDMA data path.
 * <p>
 * {@link io.rpcrdma.memory.RegisteredMemoryPool} pre-registers direct memory in a
 * protection domain and leases it as {@link io.rpcrdma.memory.RegisteredBuffer}s in size
 * classes (receive and send buffers of the inline threshold, chunk buffers, local bulk
 * buffers), so that the data path never registers memory (RFC 5666 §7). Buffers that are
 * advertised to the peer have their own memory region whose STag is replaced on release
 * (RFC 8166 §8). {@link io.rpcrdma.memory.RegistrationCache} registers caller-supplied
 * direct buffers once and reuses the registration.
 * <p>
 * Both are configured with plain records ({@link io.rpcrdma.memory.MemoryPoolConfig},
 * {@link io.rpcrdma.memory.SizeClass}) and report snapshots as records
 * ({@link io.rpcrdma.memory.MemoryPoolStats}, {@link io.rpcrdma.memory.RegistrationCacheStats})
 * for the metrics layer to expose.
 */
package io.rpcrdma.memory;
