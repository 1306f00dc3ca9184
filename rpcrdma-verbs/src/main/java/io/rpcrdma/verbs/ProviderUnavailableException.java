package io.rpcrdma.verbs;

import java.util.List;
import java.util.Optional;

/**
 * A provider was asked for by name but is unknown or cannot run here (for example no RDMA
 * device or no native library); the message lists the known providers and why each
 * unavailable one is unavailable. When a known provider is unavailable, the exception also
 * carries its name, each missing requirement with its remedy, and the providers that are
 * available, so that a caller (Spring Boot's failure analysis) can present them.
 */
public class ProviderUnavailableException extends RdmaException {

	private static final long serialVersionUID = 1L;

	private final String provider;

	private final List<MissingRequirement> missing;

	private final List<String> available;

	/**
	 * Creates the exception.
	 * @param message what was asked for and what is available
	 */
	public ProviderUnavailableException(String message) {
		this(message, null, List.of(), List.of());
	}

	/**
	 * Creates the exception for a known provider that cannot run here.
	 * @param message what was asked for and what is available
	 * @param provider the provider's name
	 * @param missing what it needs and did not find
	 * @param available the providers that can run here
	 */
	public ProviderUnavailableException(String message, String provider, List<MissingRequirement> missing,
			List<String> available) {
		super(message);
		this.provider = provider;
		this.missing = List.copyOf(missing);
		this.available = List.copyOf(available);
	}

	/**
	 * The provider asked for, when it is a known one.
	 * @return its name
	 */
	public Optional<String> provider() {
		return Optional.ofNullable(this.provider);
	}

	/**
	 * What the provider needs and did not find.
	 * @return the requirements, empty when unknown
	 */
	public List<MissingRequirement> missingRequirements() {
		return this.missing;
	}

	/**
	 * The providers that can run here.
	 * @return their names, empty when unknown
	 */
	public List<String> availableProviders() {
		return this.available;
	}

}
