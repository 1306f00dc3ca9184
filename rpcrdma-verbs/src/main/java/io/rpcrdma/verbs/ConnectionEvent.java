package io.rpcrdma.verbs;

import java.util.Objects;

/**
 * A connection manager event (rdma_cm {@code rdma_cm_event}).
 *
 * @param type what happened
 * @param privateData the peer's private data (with {@link ConnectionEventType#ESTABLISHED}
 * on the active side and {@link ConnectionEventType#REJECTED}), else empty
 * @param detail a human-readable explanation, never {@code null}
 */
public record ConnectionEvent(ConnectionEventType type, PrivateData privateData, String detail) {

	/**
	 * Validates the event.
	 * @param type what happened
	 * @param privateData the peer's private data
	 * @param detail an explanation
	 */
	public ConnectionEvent {
		Objects.requireNonNull(type, "type");
		privateData = (privateData != null) ? privateData : PrivateData.EMPTY;
		detail = (detail != null) ? detail : type.name();
	}

	/**
	 * An event without private data.
	 * @param type what happened
	 * @param detail an explanation
	 * @return the event
	 */
	public static ConnectionEvent of(ConnectionEventType type, String detail) {
		return new ConnectionEvent(type, PrivateData.EMPTY, detail);
	}

}
