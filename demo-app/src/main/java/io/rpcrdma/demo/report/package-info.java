/**
 * How the demo client reports a run: progress, a results table and the transport's counters
 * (what went inline and what by chunk).
 */
package io.rpcrdma.demo.report;
