package io.rpcrdma.verbs;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.StringJoiner;

/**
 * Finds and opens RDMA providers by name. The names are {@code loopback} (in-JVM),
 * {@code siw} (software iWARP over TCP), {@code disni} (RDMA adapters through libibverbs)
 * and {@code auto}, which picks the most capable available provider: disni if available,
 * else siw, else loopback. Providers are discovered with {@link ServiceLoader} through
 * {@link RdmaProviderFactory}.
 */
public final class RdmaProviders {

	/** The name that selects the best available provider. */
	public static final String AUTO = "auto";

	/** The provider names the project defines, whether or not they are on the class path. */
	public static final List<String> WELL_KNOWN_NAMES = List.of("loopback", "siw", "disni");

	/**
	 * The artifact that brings each well-known provider: loopback is in this module; siw and
	 * disni are modules of their own, which an application adds (the starter brings siw).
	 */
	private static final Map<String, String> ARTIFACTS = Map.of("loopback", "io.rpcrdma:rpcrdma-verbs", "siw",
			"io.rpcrdma:rpcrdma-siw", "disni", "io.rpcrdma:rpcrdma-disni");

	private static final System.Logger logger = System.getLogger(RdmaProviders.class.getName());

	private RdmaProviders() {
	}

	/**
	 * Opens a provider with default settings.
	 * @param name a provider name or {@code auto}
	 * @return the open provider; the caller closes it
	 * @throws ProviderUnavailableException if the name is unknown or the provider cannot
	 * run here
	 */
	public static RdmaProvider open(String name) {
		return open(name, RdmaProviderConfig.defaults());
	}

	/**
	 * Opens a provider.
	 * @param name a provider name or {@code auto}
	 * @param config provider settings
	 * @return the open provider; the caller closes it
	 * @throws ProviderUnavailableException if the name is unknown or the provider cannot
	 * run here
	 */
	public static RdmaProvider open(String name, RdmaProviderConfig config) {
		return resolve(name).create(config);
	}

	/**
	 * Resolves a name to the factory that would be used, without opening anything.
	 * @param name a provider name or {@code auto}
	 * @return the factory of an available provider
	 * @throws ProviderUnavailableException if the name is unknown or the provider cannot
	 * run here
	 */
	public static RdmaProviderFactory resolve(String name) {
		if (name == null || name.isBlank()) {
			throw new ProviderUnavailableException(
					"No RDMA provider name given; use one of " + knownNames() + " (" + describe() + ")");
		}
		String wanted = name.trim().toLowerCase(Locale.ROOT);
		Map<String, RdmaProviderFactory> factories = factories();
		if (AUTO.equals(wanted)) {
			Optional<RdmaProviderFactory> best = factories.values()
				.stream()
				.filter(RdmaProviderFactory::isAvailable)
				.max(Comparator.comparingInt(RdmaProviderFactory::autoPriority));
			if (best.isEmpty()) {
				throw new ProviderUnavailableException(
						"Provider 'auto' found no available RDMA provider: " + describe());
			}
			logger.log(Level.INFO, "RDMA provider 'auto' selected ''{0}'' ({1})", best.get().name(), describe());
			return best.get();
		}
		RdmaProviderFactory factory = factories.get(wanted);
		if (factory == null && ARTIFACTS.containsKey(wanted)) {
			throw new ProviderUnavailableException("RDMA provider '" + wanted + "' is not on the class path: add "
					+ ARTIFACTS.get(wanted) + " to the application's dependencies, or choose an available provider: "
					+ availableNames(factories), wanted, List.of(moduleMissing(wanted)), availableList(factories));
		}
		if (factory == null) {
			throw new ProviderUnavailableException("Unknown RDMA provider '" + name + "'; known providers are "
					+ knownNames() + " (" + describe() + ")");
		}
		if (!factory.isAvailable()) {
			throw new ProviderUnavailableException("RDMA provider '" + wanted + "' is not available here: "
					+ factory.unavailableReason() + ". Fix that, or choose an available provider: " + availableNames(factories),
					wanted, factory.missingRequirements(), availableList(factories));
		}
		return factory;
	}

	/** A well-known provider whose module the application did not add, as a requirement it misses. */
	private static MissingRequirement moduleMissing(String name) {
		String artifact = ARTIFACTS.get(name);
		return new MissingRequirement("the " + name + " provider's module " + artifact + " on the class path",
				"no RdmaProviderFactory named '" + name + "' found by ServiceLoader",
				"add the dependency " + artifact + " (its version comes from rpcrdma-bom)");
	}

	/**
	 * All names {@link #open(String)} accepts: the discovered providers, the well-known
	 * names and {@code auto}.
	 * @return the known names
	 */
	public static List<String> knownNames() {
		List<String> names = new ArrayList<>(WELL_KNOWN_NAMES);
		for (String discovered : factories().keySet()) {
			if (!names.contains(discovered)) {
				names.add(discovered);
			}
		}
		names.add(AUTO);
		return names;
	}

	/**
	 * A one-line description of every known provider and whether it is available, for
	 * messages and health output; for example
	 * {@code "loopback: available; siw: not installed (...); disni: not installed (...)"}.
	 * @return the description
	 */
	public static String describe() {
		Map<String, RdmaProviderFactory> factories = factories();
		StringJoiner joiner = new StringJoiner("; ");
		List<String> names = new ArrayList<>(WELL_KNOWN_NAMES);
		factories.keySet().stream().filter((n) -> !names.contains(n)).forEach(names::add);
		for (String name : names) {
			RdmaProviderFactory factory = factories.get(name);
			if (factory == null) {
				joiner.add(name + ": not installed (" + ((ARTIFACTS.containsKey(name)) ? ARTIFACTS.get(name) + " is not"
						: "no RdmaProviderFactory named '" + name + "' is") + " on the class path)");
			}
			else if (factory.isAvailable()) {
				joiner.add(name + ": available");
			}
			else {
				joiner.add(name + ": unavailable (" + factory.unavailableReason() + ")");
			}
		}
		return joiner.toString();
	}

	private static String availableNames(Map<String, RdmaProviderFactory> factories) {
		List<String> available = availableList(factories);
		return available.isEmpty() ? "none" : String.join(", ", available);
	}

	private static List<String> availableList(Map<String, RdmaProviderFactory> factories) {
		return factories.values().stream().filter(RdmaProviderFactory::isAvailable).map(RdmaProviderFactory::name).toList();
	}

	/**
	 * The discovered factories by name.
	 * @return the factories, in discovery order
	 */
	public static Map<String, RdmaProviderFactory> factories() {
		Map<String, RdmaProviderFactory> factories = new LinkedHashMap<>();
		ClassLoader loader = Thread.currentThread().getContextClassLoader();
		if (loader == null) {
			loader = RdmaProviders.class.getClassLoader();
		}
		for (RdmaProviderFactory factory : ServiceLoader.load(RdmaProviderFactory.class, loader)) {
			factories.putIfAbsent(factory.name().toLowerCase(Locale.ROOT), factory);
		}
		if (factories.isEmpty() && loader != RdmaProviders.class.getClassLoader()) {
			for (RdmaProviderFactory factory : ServiceLoader.load(RdmaProviderFactory.class,
					RdmaProviders.class.getClassLoader())) {
				factories.putIfAbsent(factory.name().toLowerCase(Locale.ROOT), factory);
			}
		}
		return factories;
	}

}
