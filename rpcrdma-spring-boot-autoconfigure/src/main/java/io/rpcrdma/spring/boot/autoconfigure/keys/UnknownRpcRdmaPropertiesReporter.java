package io.rpcrdma.spring.boot.autoconfigure.keys;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Reports {@code rpcrdma.*} keys that no setting binds once the application's environment is
 * complete, before any bean is made (as Spring Boot's properties migrator reports renamed
 * keys): a warning each, with the nearest valid key, or a failed start-up when
 * {@code rpcrdma.fail-on-unknown-properties} is true. A client with a misspelt key and no
 * address fails the start-up either way: {@code rpcrdma.client.greeter.adress} would
 * otherwise leave {@code greeter} without an address, and such a client calls the
 * application's own server.
 * <p>
 * Environment variables are not checked: their names lose the dashes of the keys they set
 * ({@code RPCRDMA_SERVER_SHUTDOWN_GRACE_PERIOD}), so they cannot be told from misspellings.
 */
public final class UnknownRpcRdmaPropertiesReporter implements ApplicationListener<ApplicationPreparedEvent> {

	/** The property that turns the warnings into a failed start-up. */
	public static final String FAIL_PROPERTY = "rpcrdma.fail-on-unknown-properties";

	private static final System.Logger logger = System.getLogger(UnknownRpcRdmaPropertiesReporter.class.getName());

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("rpcrdma");

	private final RpcRdmaPropertyNames names = RpcRdmaPropertyNames.of();

	@Override
	public void onApplicationEvent(ApplicationPreparedEvent event) {
		ConfigurableEnvironment environment = event.getApplicationContext().getEnvironment();
		List<UnknownProperty> unknown = find(environment);
		if (unknown.isEmpty()) {
			return;
		}
		Binder binder = Binder.get(environment);
		boolean fail = binder.bind(FAIL_PROPERTY, Boolean.class).orElse(false);
		if (fail || unknown.stream().anyMatch((property) -> property.unaddressedClient().isPresent())) {
			throw new UnknownRpcRdmaPropertiesException(unknown);
		}
		for (UnknownProperty property : unknown) {
			logger.log(Level.WARNING, () -> property.describe() + " (ignored; " + FAIL_PROPERTY
					+ "=true stops the start-up instead)");
		}
	}

	/**
	 * @param environment the application's environment
	 * @return the unknown {@code rpcrdma.*} keys, each once, in the order of the sources
	 */
	public List<UnknownProperty> find(ConfigurableEnvironment environment) {
		Binder binder = Binder.get(environment);
		Set<ConfigurationPropertyName> seen = new LinkedHashSet<>();
		List<UnknownProperty> unknown = new ArrayList<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (!(source instanceof IterableConfigurationPropertySource iterable) || isEnvironmentVariables(source)) {
				continue;
			}
			iterable.stream().filter(ROOT::isAncestorOf).filter((name) -> !this.names.isKnown(name)).forEach((name) -> {
				if (seen.add(name)) {
					ConfigurationProperty property = iterable.getConfigurationProperty(name);
					Optional<String> origin = Optional.ofNullable(property).map(ConfigurationProperty::getOrigin)
						.map(Object::toString);
					Optional<String> nearest = this.names.nearest(name);
					unknown.add(new UnknownProperty(name.toString(), origin, nearest,
							unaddressedClient(name, nearest, binder)));
				}
			});
		}
		return unknown;
	}

	/** The client the key was meant for, when that client has no address. */
	private static Optional<String> unaddressedClient(ConfigurationPropertyName name, Optional<String> nearest,
			Binder binder) {
		Optional<String> client = RpcRdmaPropertyNames.clientOf(name)
			.or(() -> nearest.map(ConfigurationPropertyName::of).flatMap(RpcRdmaPropertyNames::clientOf));
		return client.filter((named) -> !binder
			.bind(ConfigurationPropertyName.of("rpcrdma.client").append(named).append("address"),
					Bindable.listOf(String.class))
			.map((addresses) -> !addresses.isEmpty())
			.orElse(false));
	}

	private static boolean isEnvironmentVariables(ConfigurationPropertySource source) {
		Object underlying = source.getUnderlyingSource();
		return underlying instanceof SystemEnvironmentPropertySource
				|| (underlying instanceof org.springframework.core.env.PropertySource<?> named
						&& StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(named.getName()));
	}

}
