package io.rpcrdma.verbs;

/**
 * The peer rejected the connection request; {@link #privateData()} is what it sent with
 * the rejection (RFC 8797 does not define reject data, applications may).
 */
public class ConnectionRejectedException extends ConnectionFailedException {

	private final PrivateData privateData;

	/**
	 * Creates the exception.
	 * @param message who rejected
	 * @param privateData the peer's private data
	 */
	public ConnectionRejectedException(String message, PrivateData privateData) {
		super(ConnectionEventType.REJECTED, message);
		this.privateData = privateData;
	}

	/**
	 * The private data the peer rejected with.
	 * @return the private data
	 */
	public PrivateData privateData() {
		return this.privateData;
	}

}
