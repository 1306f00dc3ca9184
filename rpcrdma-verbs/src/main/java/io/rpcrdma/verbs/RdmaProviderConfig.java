package io.rpcrdma.verbs;

import java.util.Map;
import java.util.Optional;

/**
 * Provider-specific settings given to {@link RdmaProviderFactory#create(RdmaProviderConfig)},
 * as plain string properties so that any configuration source (system properties, Spring
 * properties under {@code rpcrdma.provider.*}) can supply them. Each provider documents
 * the keys it understands and ignores the others.
 *
 * @param properties the settings, never {@code null}
 */
public record RdmaProviderConfig(Map<String, String> properties) {

	/**
	 * Copies the properties.
	 * @param properties the settings
	 */
	public RdmaProviderConfig {
		properties = Map.copyOf(properties);
	}

	/**
	 * A configuration with no settings: every provider's defaults.
	 * @return the empty configuration
	 */
	public static RdmaProviderConfig defaults() {
		return new RdmaProviderConfig(Map.of());
	}

	/**
	 * The value of a setting.
	 * @param key the setting name
	 * @return the value, if set
	 */
	public Optional<String> get(String key) {
		return Optional.ofNullable(this.properties.get(key));
	}

	/**
	 * An integer setting.
	 * @param key the setting name
	 * @param defaultValue the value when unset
	 * @return the value
	 * @throws IllegalArgumentException if the value is not an integer
	 */
	public int getInt(String key, int defaultValue) {
		String value = this.properties.get(key);
		if (value == null) {
			return defaultValue;
		}
		try {
			return Integer.parseInt(value.trim());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(
					"Provider setting '" + key + "' must be an integer but is '" + value + "'", ex);
		}
	}

	/**
	 * A copy with one more setting.
	 * @param key the setting name
	 * @param value the value
	 * @return the new configuration
	 */
	public RdmaProviderConfig with(String key, String value) {
		java.util.HashMap<String, String> copy = new java.util.HashMap<>(this.properties);
		copy.put(key, value);
		return new RdmaProviderConfig(copy);
	}

}
