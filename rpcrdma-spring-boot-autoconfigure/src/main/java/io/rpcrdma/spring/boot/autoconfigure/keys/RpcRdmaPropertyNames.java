package io.rpcrdma.spring.boot.autoconfigure.keys;

import java.beans.BeanInfo;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaProperties;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;

/**
 * Every key {@link RpcRdmaProperties} binds, as patterns read from its bean properties (the
 * same walk Spring Boot's binder makes): {@code rpcrdma.client.*.address}, where {@code *}
 * is any client name, and {@code rpcrdma.provider-settings.**}, where a map of values takes
 * any key below it. Tells whether a configured name is one of them, and which valid key is
 * nearest to one that is not.
 */
public final class RpcRdmaPropertyNames {

	static final String ANY = "*";

	static final String ANY_BELOW = "**";

	private final List<List<String>> patterns;

	private RpcRdmaPropertyNames(List<List<String>> patterns) {
		this.patterns = List.copyOf(patterns);
	}

	/** @return the keys of {@link RpcRdmaProperties} */
	public static RpcRdmaPropertyNames of() {
		List<List<String>> patterns = new ArrayList<>();
		walk(RpcRdmaProperties.class, List.of("rpcrdma"), patterns);
		return new RpcRdmaPropertyNames(patterns);
	}

	private static void walk(Class<?> type, List<String> prefix, List<List<String>> patterns) {
		BeanInfo info;
		try {
			info = Introspector.getBeanInfo(type, Object.class);
		}
		catch (IntrospectionException ex) {
			throw new IllegalStateException("Cannot read the properties of " + type.getName(), ex);
		}
		for (PropertyDescriptor property : info.getPropertyDescriptors()) {
			if (property.getReadMethod() == null) {
				continue;
			}
			List<String> name = with(prefix, dashed(property.getName()));
			Class<?> valueType = property.getPropertyType();
			if (isNested(valueType)) {
				walk(valueType, name, patterns);
			}
			else if (Map.class.isAssignableFrom(valueType)) {
				Type generic = property.getReadMethod().getGenericReturnType();
				Type value = (generic instanceof ParameterizedType map) ? map.getActualTypeArguments()[1] : Object.class;
				if (value instanceof Class<?> nested && isNested(nested)) {
					walk(nested, with(name, ANY), patterns);
				}
				else {
					patterns.add(with(name, ANY_BELOW));
				}
			}
			else if (property.getWriteMethod() != null) {
				patterns.add(name);
			}
		}
	}

	private static boolean isNested(Class<?> type) {
		return type.getDeclaringClass() == RpcRdmaProperties.class && !type.isEnum();
	}

	private static List<String> with(List<String> prefix, String element) {
		List<String> name = new ArrayList<>(prefix);
		name.add(element);
		return name;
	}

	private static String dashed(String camel) {
		return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	/** @return the patterns, dotted: {@code rpcrdma.client.*.address} */
	List<String> patterns() {
		return this.patterns.stream().map((pattern) -> String.join(".", pattern)).toList();
	}

	/**
	 * @param name a configured name under {@code rpcrdma}
	 * @return whether some setting binds it (list indexes, {@code address[0]}, included)
	 */
	public boolean isKnown(ConfigurationPropertyName name) {
		return this.patterns.stream().anyMatch((pattern) -> matches(pattern, name));
	}

	private static boolean matches(List<String> pattern, ConfigurationPropertyName name) {
		int i = 0;
		for (String element : pattern) {
			if (element.equals(ANY_BELOW)) {
				return i < name.getNumberOfElements();
			}
			if (i >= name.getNumberOfElements() || name.isNumericIndex(i)) {
				return false;
			}
			if (!element.equals(ANY) && !uniform(element).equals(name.getElement(i, Form.UNIFORM))) {
				return false;
			}
			i++;
		}
		for (; i < name.getNumberOfElements(); i++) {
			if (!name.isNumericIndex(i)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * @param name a configured name that is not known
	 * @return the valid key nearest to it in spelling, client names and map keys taken from
	 * it, or empty when none is near
	 */
	public Optional<String> nearest(ConfigurationPropertyName name) {
		String written = written(name);
		String best = null;
		int bestDistance = Integer.MAX_VALUE;
		for (List<String> pattern : this.patterns) {
			String candidate = instantiate(pattern, name);
			int distance = distance(written, candidate);
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		// Further than a third of the key apart is not a misspelling but another key.
		return (best != null && bestDistance <= Math.max(2, written.length() / 3)) ? Optional.of(best)
				: Optional.empty();
	}

	/**
	 * @param name a configured name under {@code rpcrdma.client}
	 * @return the client name it configures, if it has one
	 */
	static Optional<String> clientOf(ConfigurationPropertyName name) {
		if (name.getNumberOfElements() > 2 && name.getElement(1, Form.UNIFORM).equals("client")) {
			return Optional.of(name.getElement(2, Form.ORIGINAL));
		}
		return Optional.empty();
	}

	private static String instantiate(List<String> pattern, ConfigurationPropertyName name) {
		StringBuilder key = new StringBuilder();
		for (int i = 0; i < pattern.size(); i++) {
			String element = pattern.get(i);
			if (element.equals(ANY) || element.equals(ANY_BELOW)) {
				element = (i < name.getNumberOfElements()) ? name.getElement(i, Form.ORIGINAL) : element;
			}
			key.append((i > 0) ? "." : "").append(element);
		}
		return key.toString();
	}

	private static String written(ConfigurationPropertyName name) {
		StringBuilder key = new StringBuilder();
		for (int i = 0; i < name.getNumberOfElements() && !name.isNumericIndex(i); i++) {
			key.append((i > 0) ? "." : "").append(name.getElement(i, Form.DASHED));
		}
		return key.toString();
	}

	private static String uniform(String dashed) {
		return dashed.replace("-", "");
	}

	/** Levenshtein distance: the edits that turn one key into the other. */
	static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
