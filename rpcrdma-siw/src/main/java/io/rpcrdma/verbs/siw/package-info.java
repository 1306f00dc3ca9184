/**
 * The software iWARP provider {@code siw}: RDMAP (RFC 5040) over DDP (RFC 5041) over MPA
 * (RFC 5044, with RFC 6581's enhanced connection setup) over plain TCP, wire-compatible with
 * Linux SoftiWARP, implementing the whole {@link io.rpcrdma.verbs} SPI. It is the default
 * provider where no RDMA adapter is present. The wire format itself is
 * {@link io.rpcrdma.verbs.siw.wire}.
 *
 * <h2>Pieces</h2>
 * <ul>
 * <li>{@link io.rpcrdma.verbs.siw.SiwProviderFactory} and {@link io.rpcrdma.verbs.siw.SiwProvider}
 * (one software RNIC with its own memory region table), configured by
 * {@link io.rpcrdma.verbs.siw.SiwSettings}.</li>
 * <li>A connection is one non-blocking TCP connection (TCP_NODELAY, SO_KEEPALIVE, IPv4 or
 * IPv6) served by one of the provider's shared I/O threads ({@code siw.io-threads}): it
 * connects (non-blocking connect, MPA exchange), runs the {@code RdmapReceiver} in turns
 * whenever the socket is readable, with a byte budget per turn, and finishes on
 * {@code OP_WRITE} what the socket did not take at once. A thread that posts work transmits
 * it itself ({@code RdmapTransmitter}) without ever blocking, and the receive path never
 * waits for a send: Read Responses it owes are queued for the transmitter. A connection has
 * no thread of its own; completion handlers run on the I/O thread (or on a caller reading its
 * own reply) and must not block. Idle connections hold no transmit or receive buffer.</li>
 * <li>The SPI's private data is the MPA private data after the 4 IRD/ORD bytes, at most
 * {@value io.rpcrdma.verbs.siw.SiwSettings#MAX_MPA_PRIVATE_DATA} bytes, within siw's 256. A
 * rejection is an MPA Reply with R set, carrying the private data.</li>
 * </ul>
 *
 * <h2>Choices where iWARP and the SPI differ</h2>
 * <ul>
 * <li><b>Completing Sends and Writes.</b> iWARP has no acknowledgement. As Linux's siw
 * does (siw_qp_sq_proc), a Send or RDMA Write completes once the socket has taken all of it;
 * an RDMA Read completes when its Response has placed all its data. A message the peer
 * cannot take fails by the peer's Terminate, which moves the queue pair to error and flushes
 * what is outstanding, not by its own completion ({@code ProviderCapabilities}:
 * {@code remoteErrorsAtInitiator} and {@code receiverNotReadyRetry} are false). A Write's
 * placement is proven only by a later Send's delivery or Read's Response (RFC 5040 §5.5).</li>
 * <li><b>Receiver not ready.</b> iWARP has no RNR retry: a Send that finds no receive is a
 * DDP "no buffer available" error (RFC 5041 §7, untagged error 0x02). The receiver waits for
 * a receive to be posted, for its queue pair's RNR policy window but at least
 * {@code siw.rnr-grace-millis}, pausing that connection's receive stream; then it
 * terminates, and the sender's queue pair goes to error, flushing what is outstanding.</li>
 * <li><b>Terminate codes.</b> Refused RDMA Writes and Read Responses are DDP tagged buffer
 * errors; refused Read Requests are RDMAP remote protection errors quoting the Read Request;
 * a receive too small is DDP "message too long" ({@code REM_INV_REQ_ERR} at the sender,
 * {@code LOC_LEN_ERR} at the receiver).</li>
 * <li><b>FPDU size.</b> FPDUs carry at most the MULPDU of the effective MSS (RFC 5044 §4):
 * 65483 on IPv4 loopback (65464 on IPv6), as Linux with TCP timestamps, 1448 (1428) over
 * Ethernet, or {@code siw.mss}.</li>
 * </ul>
 */
package io.rpcrdma.verbs.siw;
