package io.rpcrdma.spring.boot.autoconfigure.keys;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Start-up refused over {@code rpcrdma.*} keys that no setting binds: because
 * {@code rpcrdma.fail-on-unknown-properties} is set, or because a client with a misspelt key
 * has no address and would call the application's own server.
 */
public class UnknownRpcRdmaPropertiesException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient List<UnknownProperty> unknown;

	/** @param unknown the keys, at least one */
	public UnknownRpcRdmaPropertiesException(List<UnknownProperty> unknown) {
		super("Unknown rpcrdma properties: "
				+ unknown.stream().map(UnknownProperty::describe).collect(Collectors.joining("; ")));
		this.unknown = List.copyOf(unknown);
	}

	/** @return the keys */
	public List<UnknownProperty> unknown() {
		return this.unknown;
	}

}
