/**
 * The iWARP wire format, independent of any RDMA provider SPI: MPA connection setup and
 * framing (RFC 5044, enhanced by RFC 6581), DDP segments (RFC 5041) and RDMAP messages
 * (RFC 5040), wire-compatible with Linux SoftiWARP (siw) and checked against Wireshark's
 * iWARP dissectors.
 *
 * <h2>Pieces</h2>
 * <ul>
 * <li>Connection setup: {@link io.rpcrdma.verbs.siw.wire.MpaFrame} and
 * {@link io.rpcrdma.verbs.siw.wire.MpaIrdOrd} values, the strict incremental
 * {@link io.rpcrdma.verbs.siw.wire.MpaCodec}, and {@link io.rpcrdma.verbs.siw.wire.MpaNegotiator}
 * with a {@link io.rpcrdma.verbs.siw.wire.CrcPolicy} for the RFC 5044 §7.1 rules.</li>
 * <li>Sending: {@link io.rpcrdma.verbs.siw.wire.DdpSegmenter} cuts a message into segments
 * that fit the MULPDU ({@link io.rpcrdma.verbs.siw.wire.Mpa#mulpdu(int)}) and
 * {@link io.rpcrdma.verbs.siw.wire.FpduWriter} frames each as an FPDU.</li>
 * <li>Receiving: {@link io.rpcrdma.verbs.siw.wire.FpduParser} finds complete FPDUs in a receive
 * buffer and describes each as a reusable {@link io.rpcrdma.verbs.siw.wire.Fpdu} view;
 * {@link io.rpcrdma.verbs.siw.wire.DdpReceiveValidator} applies the queue, MSN and MO rules.</li>
 * <li>Errors: every rule broken raises a specific
 * {@link io.rpcrdma.verbs.siw.wire.IwarpWireException} naming the
 * {@link io.rpcrdma.verbs.siw.wire.TerminateError} to report in a
 * {@link io.rpcrdma.verbs.siw.wire.TerminateMessage};
 * {@link io.rpcrdma.verbs.siw.wire.RemoteAccessError} maps refused memory accesses.</li>
 * </ul>
 *
 * <h2>What Linux siw does, and so what this package does</h2>
 * <ul>
 * <li>MPA Request/Reply flags byte: M 0x80, C 0x40, R 0x20 and the RFC 6581 enhanced bit 0x10;
 * siw privately uses 0x08 to offer oversized FPDUs, which we ignore, keeping siw at one FPDU
 * per TCP segment. siw sends revision 2 enhanced Requests and answers revision 1 too.</li>
 * <li>Enhanced private data starts with two big-endian 16-bit words, IRD then ORD, each with
 * two control bits on top (peer-to-peer and Send RTR in the IRD word, Write RTR and Read RTR in
 * the ORD word) and a 14-bit value. siw by default does not ask for peer-to-peer mode.</li>
 * <li>siw refuses MPA private data over 256 bytes, IRD/ORD included
 * ({@link io.rpcrdma.verbs.siw.wire.MpaCodec#SIW_MAX_PRIVATE_DATA_LENGTH}), although RFC 5044
 * allows 512.</li>
 * <li>siw rejects a Request asking for markers, turns CRC on when either side sets C, and by
 * default does not ask for CRC itself.</li>
 * <li>The CRC32c trailer travels least significant byte first, as in iSCSI: siw stores the
 * little-endian result of the kernel's crc32c, and Wireshark reads the field big-endian and
 * compares it with the byte-swapped CRC; RFC 3720 appendix B.4's vectors show the same
 * bytes.</li>
 * <li>siw sizes FPDUs to the TCP MSS rounded down to a multiple of 8, so on loopback an FPDU can
 * approach 64 KiB: receive buffers should hold
 * {@code Mpa.fpduLength(Mpa.MAX_ULPDU_LENGTH)} bytes.</li>
 * <li>siw numbers each untagged queue from MSN 1, sends its Terminate on queue 2 with MSN 1,
 * and quotes the failed segment's DDP header preceded by a DDP Segment Length that counts the
 * payload only (RFC 5040 §4.8 leaves that field's exact meaning loose; this package carries
 * whatever value it is given).</li>
 * </ul>
 */
package io.rpcrdma.verbs.siw.wire;
