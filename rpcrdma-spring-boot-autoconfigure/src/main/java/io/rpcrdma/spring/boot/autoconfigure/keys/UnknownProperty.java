package io.rpcrdma.spring.boot.autoconfigure.keys;

import java.util.Optional;

/**
 * An {@code rpcrdma.*} key that no setting binds.
 *
 * @param name the key as configured
 * @param origin where it is configured ({@code class path resource [application.yml] - 4:5}),
 * or empty when the source does not say
 * @param nearest the valid key nearest in spelling, or empty
 * @param unaddressedClient the client it belongs to when that client has no address, so calls
 * the application's own server; empty otherwise
 */
public record UnknownProperty(String name, Optional<String> origin, Optional<String> nearest,
		Optional<String> unaddressedClient) {

	/** @return one line saying what is wrong and the likely fix */
	public String describe() {
		StringBuilder line = new StringBuilder(this.name);
		this.origin.ifPresent((where) -> line.append(" (").append(where).append(')'));
		line.append(" is not an rpcrdma property");
		this.nearest.ifPresentOrElse((key) -> line.append("; did you mean ").append(key).append('?'),
				() -> line.append("; docs/configuration.md lists them all"));
		this.unaddressedClient.ifPresent((client) -> line.append(" Client '")
			.append(client)
			.append("' has no address, so it would call this application's own server; set rpcrdma.client.")
			.append(client)
			.append(".address"));
		return line.toString();
	}

}
