package io.rpcrdma.verbs.disni;

import io.rpcrdma.verbs.RnrPolicy;

/**
 * The retry counts one end of a connection asks for in its {@code rdma_conn_param}, chosen as
 * Linux's xprtrdma chooses them (net/sunrpc/xprtrdma/verbs.c, {@code rpcrdma_ep_create}) except
 * where this project's server differs from svcrdma (docs/hardware.md, "Retry and RNR settings").
 * <p>
 * The connection manager hands each end's RNR retry count to the other end's queue pair: the
 * requester's count rules the responder's Sends (replies, backward calls) and the listener's
 * count rules the requester's Sends (calls). The transport retry count rules both directions'
 * retransmissions of unacknowledged packets.
 *
 * @param retryCount the transport retry count, 0 to 7
 * @param rnrRetryCount the RNR retry count, 0 to 7 ({@link RnrPolicy#INFINITE} retries forever)
 */
record CmRetries(int retryCount, int rnrRetryCount) {

	/**
	 * Validates the counts, which the connection manager carries in three bits.
	 * @param retryCount the transport retry count
	 * @param rnrRetryCount the RNR retry count
	 */
	CmRetries {
		if (retryCount < 0 || retryCount > 7 || rnrRetryCount < 0 || rnrRetryCount > 7) {
			throw new IllegalArgumentException(
					"Retry counts must be 0 to 7, got retry " + retryCount + " and RNR retry " + rnrRetryCount);
		}
	}

	/**
	 * What a requester's {@code rdma_connect} asks for: the settings' transport retry count
	 * (xprtrdma's 6 by default) and RNR retry count (xprtrdma's 0 by default: the requester
	 * posts the receive of every reply and backward call its credits allow before it sends, so
	 * a responder's Send that finds no receive is a fault to surface at once, RFC 8166 §3.3.1).
	 * @param settings the provider's settings
	 * @return the counts
	 */
	static CmRetries requester(DisniSettings settings) {
		return new CmRetries(settings.retryCount(), settings.requesterRnrRetryCount());
	}

	/**
	 * What a listener's {@code rdma_accept} asks for: the settings' transport retry count and the
	 * queue pair's {@link RnrPolicy} retry count (6 by default), not svcrdma's 0. This server posts
	 * the receives of a connection's first grant only as its first request is handled (before, the
	 * two of the floor); a requester that pipelines more calls than that before its first reply
	 * (RFC 5666 §6.1 and RFC 8166 §3.3.1 allow it one) is served up to the first grant, and on
	 * InfiniBand and RoCE its extra Sends are RNR NAKed until those receives are posted: with a
	 * count of 0 its queue pair would fail at the first NAK.
	 * @param settings the provider's settings
	 * @param rnrPolicy the accepting queue pair's RNR policy
	 * @return the counts
	 */
	static CmRetries responder(DisniSettings settings, RnrPolicy rnrPolicy) {
		return new CmRetries(settings.retryCount(), rnrPolicy.retryCount());
	}

}
