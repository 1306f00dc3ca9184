/**
 * The under-attack load generator: honest calls measured while hostile peers flood, stall and
 * churn a server, as recorded in docs/security.md and docs/benchmarks.md.
 */
package io.rpcrdma.benchmarks.attack;
