package io.rpcrdma.verbs;

import java.util.List;

/**
 * Service-provider interface through which {@link RdmaProviders} finds providers with
 * {@link java.util.ServiceLoader}: list implementations in
 * {@code META-INF/services/io.rpcrdma.verbs.RdmaProviderFactory}.
 */
public interface RdmaProviderFactory {

	/**
	 * The name the provider is selected by, for example {@code loopback}, {@code siw} or
	 * {@code disni}.
	 * @return the provider name, lower case
	 */
	String name();

	/**
	 * Whether the provider can run in this JVM and on this machine (native library
	 * loadable, device present...). Must be cheap and must not throw.
	 * @return {@code true} if {@link #create(RdmaProviderConfig)} can succeed
	 */
	boolean isAvailable();

	/**
	 * Why the provider is unavailable, for error messages and logs.
	 * @return a human-readable reason, or {@code "available"} when it is available
	 */
	String unavailableReason();

	/**
	 * What the provider needs and did not find, one entry per requirement with its remedy.
	 * @return the missing requirements; empty when available. By default the
	 * {@link #unavailableReason()} as one entry
	 */
	default List<MissingRequirement> missingRequirements() {
		return isAvailable() ? List.of() : List.of(new MissingRequirement(unavailableReason(), "", ""));
	}

	/**
	 * The preference of this provider when the name {@code auto} is asked for: higher wins
	 * among available providers (disni 300, siw 200, loopback 100).
	 * @return the preference
	 */
	int autoPriority();

	/**
	 * Opens a provider instance (one "device").
	 * @param config provider settings
	 * @return a new, open provider; the caller closes it
	 */
	RdmaProvider create(RdmaProviderConfig config);

}
