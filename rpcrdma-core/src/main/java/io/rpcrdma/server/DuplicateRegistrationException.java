package io.rpcrdma.server;

/**
 * A procedure was registered twice in a {@link ProgramRegistry}.
 */
public final class DuplicateRegistrationException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	DuplicateRegistrationException(String message) {
		super(message);
	}

}
