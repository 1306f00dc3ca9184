/**
 * JMH micro benchmarks of the hot paths (codecs, credit window, memory pool, small calls) and
 * {@link io.rpcrdma.benchmarks.AllocationPerCall}, which counts the bytes a call allocates;
 * docs/performance.md reads their results.
 */
package io.rpcrdma.benchmarks;
