package io.rpcrdma.verbs.soft;

import io.rpcrdma.verbs.RdmaProviderFactory;

/**
 * The discovery of a software provider: it needs nothing a machine may lack (no adapter,
 * no native library, at most TCP), so it is always available; only its name, its priority
 * for {@code auto} and how it opens differ.
 */
public abstract class SoftwareProviderFactory implements RdmaProviderFactory {

	private final String name;

	private final int autoPriority;

	/**
	 * Creates the factory of a software provider.
	 * @param name the provider's name
	 * @param autoPriority its priority when the provider is chosen automatically
	 */
	protected SoftwareProviderFactory(String name, int autoPriority) {
		this.name = name;
		this.autoPriority = autoPriority;
	}

	@Override
	public final String name() {
		return this.name;
	}

	@Override
	public final boolean isAvailable() {
		return true;
	}

	@Override
	public final String unavailableReason() {
		return "available";
	}

	@Override
	public final int autoPriority() {
		return this.autoPriority;
	}

}
