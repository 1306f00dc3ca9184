/**
 * The demo client's workload: a plan of store operations, run and checked, with per-operation
 * latency.
 */
package io.rpcrdma.demo.workload;
