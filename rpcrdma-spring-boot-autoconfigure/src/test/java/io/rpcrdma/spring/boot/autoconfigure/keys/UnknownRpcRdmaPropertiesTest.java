package io.rpcrdma.spring.boot.autoconfigure.keys;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Misspelt {@code rpcrdma.*} keys are reported at start-up with the nearest valid key
 * (issue #38, finding 4), and a client whose address key is misspelt does not quietly call
 * the application's own server.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownRpcRdmaPropertiesTest {

	private final RpcRdmaPropertyNames names = RpcRdmaPropertyNames.of();

	@Test
	void warnsOfEachMisspeltKeyWithTheNearestValidOne(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run("--rpcrdma.provder=siw", "--rpcrdma.server.prot=20049")) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output).contains("rpcrdma.provder (\"rpcrdma.provder\" from property source \"commandLineArgs\") "
				+ "is not an rpcrdma property; did you mean rpcrdma.provider?")
			.contains("rpcrdma.server.prot")
			.contains("did you mean rpcrdma.server.port?")
			.contains("(ignored; rpcrdma.fail-on-unknown-properties=true stops the start-up instead)");
	}

	@Test
	void failsTheStartUpWhenAsked() {
		assertThatExceptionOfType(UnknownRpcRdmaPropertiesException.class)
			.isThrownBy(() -> run("--rpcrdma.fail-on-unknown-properties=true", "--rpcrdma.server.shutdown-grace=5s"))
			.satisfies((ex) -> assertThat(ex.unknown()).singleElement()
				.satisfies((unknown) -> assertThat(unknown.nearest()).contains("rpcrdma.server.shutdown-grace-period")));
	}

	@Test
	void refusesAClientWhoseAddressKeyIsMisspelt() {
		assertThatExceptionOfType(UnknownRpcRdmaPropertiesException.class)
			.isThrownBy(() -> run("--rpcrdma.client.greeter.adress=rpc-1.example:20049"))
			.withMessageContaining("rpcrdma.client.greeter.adress")
			.withMessageContaining("did you mean rpcrdma.client.greeter.address?")
			.withMessageContaining("Client 'greeter' has no address, so it would call this application's own server");
	}

	@Test
	void refusesAClientConfiguredUnderAMisspeltPrefix() {
		assertThatExceptionOfType(UnknownRpcRdmaPropertiesException.class)
			.isThrownBy(() -> run("--rpcrdma.clients.greeter.address=rpc-1.example:20049"))
			.withMessageContaining("did you mean rpcrdma.client.greeter.address?")
			.withMessageContaining("Client 'greeter' has no address");
	}

	@Test
	void onlyWarnsOfAMisspeltKeyOfAClientWithAnAddress(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run("--rpcrdma.client.greeter.address=rpc-1.example:20049",
				"--rpcrdma.client.greeter.call-timout=5s")) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output).contains("did you mean rpcrdma.client.greeter.call-timeout?");
	}

	@Test
	void knowsListsMapsAndEveryFormOfAKey(CapturedOutput output) {
		try (ConfigurableApplicationContext context = run("--rpcrdma.fail-on-unknown-properties=true",
				"--rpcrdma.client.greeter.address[0]=rpc-1.example:20049",
				"--rpcrdma.client.greeter.address[1]=rpc-2.example:20049", "--rpcrdma.client.other.callTimeout=5s",
				"--rpcrdma.provider-settings.disni.completion-mode=polling",
				"--rpcrdma.server.security.services.Greeter.procedures.greet=sys",
				"--rpcrdma.server.executor.threads=4")) {
			assertThat(context.isActive()).isTrue();
		}
		assertThat(output).doesNotContain("is not an rpcrdma property");
	}

	@Test
	void everyKeyOfTheConfigurationMetadataIsKnown() throws IOException {
		List<String> plain = new ArrayList<>();
		List<String> maps = new ArrayList<>();
		try (InputStream json = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(json).as("the configuration processor's metadata").isNotNull();
			String text = new String(json.readAllBytes(), StandardCharsets.UTF_8);
			// The properties, not the groups before them nor the hints after.
			int hints = text.indexOf("\"hints\"");
			String properties = text.substring(text.indexOf("\"properties\""), (hints < 0) ? text.length() : hints);
			Matcher entry = Pattern.compile("\"name\"\\s*:\\s*\"(rpcrdma\\.[^\"]+)\",\\s*\"type\"\\s*:\\s*\"([^\"]+)\"")
				.matcher(properties);
			while (entry.find()) {
				(entry.group(2).startsWith("java.util.Map<") ? maps : plain).add(entry.group(1));
			}
		}
		assertThat(plain).hasSizeGreaterThan(40)
			.allSatisfy((key) -> assertThat(this.names.isKnown(ConfigurationPropertyName.of(key))).as(key).isTrue());
		// A map's keys are its values' keys below any key of the map's.
		assertThat(maps).contains("rpcrdma.client", "rpcrdma.provider-settings")
			.allSatisfy((key) -> assertThat(this.names.patterns())
				.anyMatch((pattern) -> pattern.startsWith(key + ".*")));
	}

	@Test
	void suggestsNothingForAKeyFarFromAnyOther() {
		assertThat(this.names.nearest(ConfigurationPropertyName.of("rpcrdma.completely-different"))).isEmpty();
	}

	private static ConfigurableApplicationContext run(String... args) {
		return new SpringApplicationBuilder(Empty.class).web(WebApplicationType.NONE).run(args);
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	static class Empty {

	}

}
