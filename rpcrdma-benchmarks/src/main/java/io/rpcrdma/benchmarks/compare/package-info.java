/**
 * The {@code Compare} load generator: rpcrdma side by side with gRPC-java and plain sockets on
 * one machine (latency, throughput, bulk), with its charts; docs/benchmarks.md reads its
 * results.
 */
package io.rpcrdma.benchmarks.compare;
