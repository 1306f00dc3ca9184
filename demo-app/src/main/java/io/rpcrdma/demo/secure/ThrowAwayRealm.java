package io.rpcrdma.demo.secure;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.Profiles;

import io.rpcrdma.kerberos.MitKdc;

/**
 * The {@code secure} profile's Kerberos realm when the machine has none for the demo: a
 * throw-away MIT KDC on 127.0.0.1 (Debian's {@code krb5-kdc}, started as rpcrdma's tests start
 * it), with the service principal {@code rpcrdma/localhost} and the client principal
 * {@code demo} in keytabs of their own, given to {@code rpcrdma.server.security.kerberos.*}
 * and {@code rpcrdma.client.store.security.kerberos.*}. Anything set explicitly wins. With
 * {@code demo.kerberos.realm=external} nothing is started: the properties name a real realm's
 * keytabs. The KDC stops when the JVM does.
 */
public final class ThrowAwayRealm implements EnvironmentPostProcessor, Ordered {

	/** The service name clients ask for, matching the principal {@code rpcrdma/localhost}. */
	static final String SERVICE = "rpcrdma@localhost";

	private static MitKdc kdc;

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!environment.acceptsProfiles(Profiles.of("secure"))
				|| !"throw-away".equals(environment.getProperty("demo.kerberos.realm", "throw-away"))) {
			return;
		}
		MitKdc realm = realm();
		Map<String, Object> properties = new LinkedHashMap<>();
		try {
			properties.put("rpcrdma.server.security.kerberos.principal", MitKdc.qualified("rpcrdma/localhost"));
			properties.put("rpcrdma.server.security.kerberos.keytab",
					realm.principalWithKeytab("rpcrdma/localhost").toString());
			properties.put("rpcrdma.client.store.security.kerberos.principal", MitKdc.qualified("demo"));
			properties.put("rpcrdma.client.store.security.kerberos.keytab", realm.principalWithKeytab("demo").toString());
			properties.put("rpcrdma.client.store.security.kerberos.service", SERVICE);
		}
		catch (IOException ex) {
			throw new IllegalStateException("The throw-away Kerberos realm could not make its keytabs: " + ex.getMessage(),
					ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while the throw-away Kerberos realm made its keytabs", ex);
		}
		environment.getPropertySources().addLast(new MapPropertySource("demo-throw-away-realm", properties));
	}

	/** One realm per JVM: Kerberos reads its configuration from one system property. */
	private static synchronized MitKdc realm() {
		if (kdc == null) {
			try {
				kdc = MitKdc.start();
			}
			catch (MitKdc.KdcUnavailableException ex) {
				throw new IllegalStateException("The secure profile starts a throw-away Kerberos realm on 127.0.0.1, and "
						+ ex.getMessage() + "; or set demo.kerberos.realm=external and point"
						+ " rpcrdma.server.security.kerberos.* and rpcrdma.client.store.security.kerberos.* at your realm's"
						+ " keytabs (docs/security.md)", ex);
			}
			catch (IOException ex) {
				throw new IllegalStateException("The throw-away Kerberos realm did not start: " + ex.getMessage(), ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while starting the throw-away Kerberos realm", ex);
			}
			MitKdc started = kdc;
			Runtime.getRuntime().addShutdownHook(new Thread(started::close, "demo-kdc-stop"));
		}
		return kdc;
	}

	/** After the configuration files are read, so {@code application-secure.yml} and profiles are known. */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
