package io.rpcrdma.protocol;

import java.util.Objects;

/**
 * What {@link TransportHeaderDecoder} made of a received message: a header that can be trusted,
 * a version this receiver does not speak, a malformed header, or too few bytes to tell.
 * <p>
 * The receiver's answers follow RFC 5666 §4.2 and RFC 8166 §4.5: a responder answers
 * {@link UnsupportedVersion} with ERR_VERS and {@link Malformed} with ERR_CHUNK (Version 1) or
 * RDMA_ERR_BAD_HEADER (Version 2), see {@link RdmaErrorReplies}; a requester drops them. An
 * {@link Unidentified} message carries no XID to answer and is dropped.
 */
public sealed interface HeaderDecodeResult {

	/**
	 * The header decoded and passed validation. The decoder is positioned at the RPC message
	 * (if any), which spans {@code payloadLength} bytes from {@code payloadOffset}.
	 *
	 * @param header the header
	 * @param payloadOffset the buffer position where the RPC message begins
	 * @param payloadLength the bytes of RPC message after the header, zero when none
	 */
	record Valid(TransportHeader header, int payloadOffset, int payloadLength) implements HeaderDecodeResult {

		public Valid {
			Objects.requireNonNull(header, "header must not be null");
		}

	}

	/**
	 * rdma_vers names a version this receiver does not support (RFC 5666 §4.2); a responder
	 * replies ERR_VERS with the versions it does support.
	 *
	 * @param xid rdma_xid, read at its fixed offset
	 * @param version the rdma_vers received
	 */
	record UnsupportedVersion(int xid, int version) implements HeaderDecodeResult {
	}

	/**
	 * The header has a supported version but breaks a rule.
	 *
	 * @param xid rdma_xid, to echo in the error reply
	 * @param version rdma_vers, a supported version, which picks the error reply's format
	 * @param fault which rule was broken
	 * @param detail what exactly was wrong, for logs
	 */
	record Malformed(int xid, int version, HeaderFault fault, String detail) implements HeaderDecodeResult {

		public Malformed {
			Objects.requireNonNull(fault, "fault must not be null");
			Objects.requireNonNull(detail, "detail must not be null");
		}

	}

	/**
	 * Fewer than eight bytes arrived, so there is not even an XID and a version to answer.
	 *
	 * @param length the bytes received
	 */
	record Unidentified(int length) implements HeaderDecodeResult {
	}

}
