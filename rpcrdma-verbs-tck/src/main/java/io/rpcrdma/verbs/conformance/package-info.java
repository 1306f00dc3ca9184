/**
 * The provider conformance kit: {@link io.rpcrdma.verbs.conformance.ProviderConformanceKit} is an
 * abstract JUnit suite that states the verbs SPI's semantics (docs/providers.md, "The provider
 * SPI"): pre-posted receives, one-sided reads and writes checked against registered memory,
 * completion order, connection events and errors. A provider's test extends it and opens its
 * provider; the project's loopback, siw and disni providers pass it, and a third-party provider
 * adds {@code io.rpcrdma:rpcrdma-verbs-tck} in test scope to run it.
 */
package io.rpcrdma.verbs.conformance;
