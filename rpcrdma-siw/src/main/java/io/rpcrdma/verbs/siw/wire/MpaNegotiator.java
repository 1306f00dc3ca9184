package io.rpcrdma.verbs.siw.wire;

import java.util.Objects;
import java.util.Optional;

/**
 * The rules of the MPA Request/Reply exchange (RFC 5044 §7.1, RFC 6581 §7.1) for one
 * endpoint's {@link CrcPolicy}: which Request to send, whether a Request can be accepted, which
 * Reply to answer with, and what a Reply means for the initiator.
 * <p>
 * This library never sends markers, so a Request asking for them is answered with a reject
 * Reply, and a Reply asking for them makes the initiator give up (Linux siw behaves the same).
 * Stateless and thread-safe.
 */
public final class MpaNegotiator {

	private final CrcPolicy crcPolicy;

	public MpaNegotiator(CrcPolicy crcPolicy) {
		this.crcPolicy = Objects.requireNonNull(crcPolicy, "crcPolicy");
	}

	/** @return the policy */
	public CrcPolicy crcPolicy() {
		return this.crcPolicy;
	}

	/**
	 * The initiator's Request: revision 2, no markers, C per policy.
	 * @param irdOrd enhanced parameters (RFC 6581), or null for a request without them
	 * @param privateData ULP private data, may be empty
	 * @return the request
	 */
	public MpaFrame request(MpaIrdOrd irdOrd, byte[] privateData) {
		return MpaFrame.request(this.crcPolicy.asksForCrc(), irdOrd, privateData);
	}

	/**
	 * @param request a decoded Request
	 * @return why the request cannot be accepted whatever the ULP decides, or empty
	 */
	public Optional<String> refusal(MpaFrame request) {
		requireKind(request, MpaFrame.Kind.REQUEST);
		if (request.markers()) {
			return Optional.of("the initiator requires MPA markers (RFC 5044 §5), which this implementation never sends");
		}
		return Optional.empty();
	}

	/**
	 * The responder's accepting Reply: same revision as the Request (both 1 and 2 are
	 * supported), no markers, and C set when the initiator asked for CRC or our policy does.
	 * @param request the Request being accepted
	 * @param irdOrd our IRD/ORD, required exactly when the Request is enhanced (RFC 6581 asks
	 * an enhanced Request to be answered by an enhanced Reply)
	 * @param privateData ULP private data, may be empty
	 * @return the reply
	 * @throws MpaNegotiationException when {@link #refusal(MpaFrame)} is not empty
	 */
	public MpaFrame acceptReply(MpaFrame request, MpaIrdOrd irdOrd, byte[] privateData) {
		Optional<String> refusal = refusal(request);
		if (refusal.isPresent()) {
			throw new MpaNegotiationException("cannot accept this MPA Request: " + refusal.get()
					+ "; answer with rejectReply instead");
		}
		if (request.enhanced() != (irdOrd != null)) {
			throw new IllegalArgumentException(request.enhanced()
					? "the Request is enhanced (RFC 6581), so the Reply must carry IRD/ORD"
					: "the Request is not enhanced, so the Reply cannot carry IRD/ORD");
		}
		boolean crc = request.crc() || this.crcPolicy.asksForCrc();
		return new MpaFrame(MpaFrame.Kind.REPLY, false, crc, false, request.revision(), irdOrd, privateData);
	}

	/**
	 * A Reply rejecting the connection, for a Request with a {@link #refusal(MpaFrame)} or
	 * one the ULP declines. It mirrors the Request's revision and C flag and, for an enhanced
	 * Request, carries zero IRD/ORD so the frame stays well-formed for RFC 6581 peers.
	 * @param request the Request being rejected
	 * @param privateData ULP private data explaining the rejection, may be empty
	 * @return the reply
	 */
	public MpaFrame rejectReply(MpaFrame request, byte[] privateData) {
		requireKind(request, MpaFrame.Kind.REQUEST);
		return new MpaFrame(MpaFrame.Kind.REPLY, false, request.crc(), true, request.revision(),
				request.enhanced() ? MpaIrdOrd.of(0, 0) : null, privateData);
	}

	/**
	 * The responder's view once it has sent an accepting Reply.
	 * @param request the Request received
	 * @param reply the Reply sent
	 * @return the parameters in force
	 */
	public MpaConnectionParameters responderParameters(MpaFrame request, MpaFrame reply) {
		requireKind(request, MpaFrame.Kind.REQUEST);
		requireKind(reply, MpaFrame.Kind.REPLY);
		return new MpaConnectionParameters(reply.crc(), reply.revision(), request.irdOrd());
	}

	/**
	 * Checks the responder's Reply against the Request we sent.
	 * @param request the Request we sent
	 * @param reply the Reply received
	 * @return the parameters in force
	 * @throws MpaRejectedException when the responder rejected the connection
	 * @throws MpaNegotiationException when the Reply breaks RFC 5044/6581 or our policy
	 */
	public MpaConnectionParameters initiatorParameters(MpaFrame request, MpaFrame reply) {
		requireKind(request, MpaFrame.Kind.REQUEST);
		requireKind(reply, MpaFrame.Kind.REPLY);
		if (reply.reject()) {
			throw new MpaRejectedException(reply);
		}
		if (reply.markers()) {
			throw new MpaNegotiationException(
					"the MPA responder requires markers (RFC 5044 §5), which this implementation never sends");
		}
		if (request.crc() && !reply.crc()) {
			throw new MpaNegotiationException("we asked for MPA CRC but the responder answered C=0; RFC 5044 §7.1"
					+ " requires a responder to echo C=1" + (this.crcPolicy == CrcPolicy.REQUIRE ? " and our policy requires CRC" : ""));
		}
		if (reply.revision() > request.revision()) {
			throw new MpaNegotiationException("the MPA responder answered revision " + reply.revision()
					+ " to our revision " + request.revision() + " Request; a responder may only go down");
		}
		if (request.enhanced() && reply.revision() == MpaFrame.REVISION_2 && !reply.enhanced()) {
			throw new MpaNegotiationException("the MPA responder answered our enhanced Request with a revision 2 Reply"
					+ " without IRD/ORD; RFC 6581 requires an enhanced Reply");
		}
		if (!request.enhanced() && reply.enhanced()) {
			throw new MpaNegotiationException("the MPA responder sent IRD/ORD although our Request was not enhanced");
		}
		if (request.enhanced() && reply.enhanced() && request.irdOrd().peerToPeer()) {
			MpaIrdOrd offered = request.irdOrd();
			MpaIrdOrd chosen = reply.irdOrd();
			boolean match = (offered.sendRtr() && chosen.sendRtr()) || (offered.writeRtr() && chosen.writeRtr())
					|| (offered.readRtr() && chosen.readRtr());
			if (!match) {
				throw new MpaNegotiationException(TerminateError.MPA_NO_MATCHING_RTR,
						"we asked for peer-to-peer mode but the responder picked none of the RTR frames we offered (RFC 6581)");
			}
		}
		return new MpaConnectionParameters(reply.crc(), reply.revision(), reply.irdOrd());
	}

	private static void requireKind(MpaFrame frame, MpaFrame.Kind kind) {
		if (frame.kind() != kind) {
			throw new IllegalArgumentException("expected an MPA " + kind + " but got " + frame.kind());
		}
	}

}
