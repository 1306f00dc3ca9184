package io.rpcrdma;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of rpcrdma on the class path, as stamped into the core jar at build time.
 */
public final class RpcRdmaVersion {

	private static final String VERSION = load();

	private RpcRdmaVersion() {
	}

	/**
	 * Returns the project version, for example {@code 0.1.0-SNAPSHOT}.
	 * @return the version string stamped at build time
	 */
	public static String get() {
		return VERSION;
	}

	private static String load() {
		try (InputStream in = RpcRdmaVersion.class.getResourceAsStream("version.properties")) {
			if (in == null) {
				throw new IllegalStateException(
						"io/rpcrdma/version.properties is missing from rpcrdma-core; rebuild the jar with Maven");
			}
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read io/rpcrdma/version.properties", ex);
		}
	}

}
