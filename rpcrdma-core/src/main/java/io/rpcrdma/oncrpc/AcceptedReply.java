package io.rpcrdma.oncrpc;

import java.util.Objects;

/**
 * A call the server accepted (RFC 5531 §9 {@code accepted_reply}): the server's verifier and
 * whether the procedure ran. Authentication passed; the status may still be an error.
 *
 * @param verifier the server's verifier, usually AUTH_NONE
 * @param status the outcome
 */
public record AcceptedReply(OpaqueAuth verifier, AcceptStatus status) implements ReplyBody {

	public AcceptedReply {
		Objects.requireNonNull(verifier, "verifier");
		Objects.requireNonNull(status, "status");
	}

	@Override
	public int replyStat() {
		return MSG_ACCEPTED;
	}

}
