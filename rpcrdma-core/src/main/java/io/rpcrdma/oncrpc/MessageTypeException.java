package io.rpcrdma.oncrpc;

/**
 * The {@code msg_type} of a message is neither CALL (0) nor REPLY (1) (RFC 5531 §9), or is
 * not the type the caller expected (a reply where a call was expected, or the reverse).
 */
public final class MessageTypeException extends OncRpcException {

	private static final long serialVersionUID = 1L;

	private final int messageType;

	MessageTypeException(int xid, int messageType, String message) {
		super(xid, message, null);
		this.messageType = messageType;
	}

	static MessageTypeException unknown(int xid, int messageType) {
		return new MessageTypeException(xid, messageType, "ONC RPC message xid " + xidText(xid) + " has msg_type "
				+ Integer.toUnsignedString(messageType)
				+ ", which is neither CALL (0) nor REPLY (1) (RFC 5531 §9); the peer does not speak ONC RPC or the message is corrupt");
	}

	static MessageTypeException unexpected(int xid, int messageType) {
		String actual = (messageType == RpcMessage.CALL) ? "CALL" : "REPLY";
		String expected = (messageType == RpcMessage.CALL) ? "REPLY" : "CALL";
		return new MessageTypeException(xid, messageType, "ONC RPC message xid " + xidText(xid) + " is a " + actual
				+ " where a " + expected + " was expected; decode with RpcMessageCodec.decode to accept both");
	}

	/**
	 * @return the {@code msg_type} value found on the wire
	 */
	public int messageType() {
		return this.messageType;
	}

}
