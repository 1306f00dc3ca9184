/**
 * The Connection Configuration Protocol of RFC 5666 §6: the CONFIG_RDMA program's request and
 * reply, which let two ends agree on credits and inline thresholds in band. Values and their
 * XDR codec; the transport runs the exchange.
 */
package io.rpcrdma.protocol.ccp;
