package io.rpcrdma.verbs.support;

import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Stand-ins for provider objects in the unit tests of this package: they tell the test of
 * the calls it watches, answer identity and their name, and refuse anything else, so that a
 * helper calling what it should not fails the test.
 */
final class Stand {

	private Stand() {
	}

	/**
	 * Creates a stand-in.
	 * @param <T> the SPI type
	 * @param type the SPI interface
	 * @param name what {@code toString} answers
	 * @param watched the names of the (void) methods to report
	 * @param onCall told of each watched call, with the stand-in and the method's name
	 * @return the stand-in
	 */
	static <T> T in(Class<T> type, String name, Set<String> watched, BiConsumer<T, String> onCall) {
		return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (proxy, method, args) -> {
			String called = method.getName();
			if (watched.contains(called)) {
				onCall.accept(type.cast(proxy), called);
				return null;
			}
			return switch (called) {
				case "hashCode" -> System.identityHashCode(proxy);
				case "equals" -> proxy == args[0];
				case "toString" -> name;
				default -> throw new UnsupportedOperationException(name + " does not expect " + called);
			};
		}));
	}

}
