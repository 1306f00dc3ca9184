package io.rpcrdma.demo;

import java.io.PrintStream;
import java.util.List;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.context.ApplicationContext;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The actuator URLs to open once the demo serves: health, metrics and, when the starter's
 * endpoint is there (it backs off without actuator or when excluded), the {@code rpcrdma}
 * endpoint and the client call timer (docs/metrics.md).
 */
@Component
public class ManagementLinks {

	private final ApplicationContext context;

	private final Environment environment;

	ManagementLinks(ApplicationContext context, Environment environment) {
		this.context = context;
		this.environment = environment;
	}

	/**
	 * @param timer the call timer worth opening (docs/metrics.md)
	 * @return the URLs, empty when no HTTP server runs (client mode, tests)
	 */
	public List<String> urls(String timer) {
		String port = this.environment.getProperty("local.management.port",
				this.environment.getProperty("local.server.port"));
		if (port == null) {
			return List.of();
		}
		String host = this.environment.getProperty("server.address", "127.0.0.1");
		String base = "http://" + host + ":" + port + this.environment.getProperty("management.endpoints.web.base-path",
				"/actuator");
		if (hasEndpoint("rpcrdma")) {
			return List.of(base + "/health", base + "/metrics", base + "/metrics/" + timer,
					base + "/rpcrdma");
		}
		return List.of(base + "/health", base + "/metrics");
	}

	void print(PrintStream out, String timer) {
		List<String> urls = urls(timer);
		if (urls.isEmpty()) {
			return;
		}
		out.println("Actuator:");
		for (String url : urls) {
			out.println("  " + url);
		}
		if (!hasEndpoint("rpcrdma")) {
			out.println("  (no /actuator/rpcrdma: the starter's rpcrdma endpoint is not enabled)");
		}
	}

	private boolean hasEndpoint(String id) {
		for (String name : this.context.getBeanNamesForAnnotation(Endpoint.class)) {
			Class<?> type = this.context.getType(name);
			Endpoint endpoint = (type != null) ? AnnotatedElementUtils.findMergedAnnotation(type, Endpoint.class) : null;
			if (endpoint != null && id.equals(endpoint.id())) {
				return true;
			}
		}
		return false;
	}

}
