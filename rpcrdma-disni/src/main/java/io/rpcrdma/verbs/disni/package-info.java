/**
 * The {@code disni} provider: the SPI mapped onto DiSNI's verbs for RDMA NICs (InfiniBand,
 * RoCE, iWARP), with detection of the native library and of a usable device. A provider
 * package: nothing outside {@code io.rpcrdma.verbs} names it.
 */
package io.rpcrdma.verbs.disni;
