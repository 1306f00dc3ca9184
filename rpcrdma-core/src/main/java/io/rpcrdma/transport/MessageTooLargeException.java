package io.rpcrdma.transport;

/**
 * A message cannot be conveyed: its transport header alone exceeds the inline threshold, or
 * a reply does not fit inline and the requester gave no big enough Reply chunk, or a chunk
 * is larger than the largest registered buffer.
 */
public class MessageTooLargeException extends TransportException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param message what was too large for what
	 */
	public MessageTooLargeException(String message) {
		super(message);
	}

}
