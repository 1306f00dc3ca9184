package io.rpcrdma.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.rpcrdma.client.balance.BalancerKind;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.server.security.GssContextLimits;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/**
 * Binding of {@code rpcrdma.*} and its validation: every invalid value fails start-up with
 * a message naming the property and the allowed range.
 */
class RpcRdmaPropertiesTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withUserConfiguration(PropertiesOnly.class);

	@Test
	void defaultsMatchTheDocumentedValues() {
		this.runner.run((context) -> {
			RpcRdmaProperties properties = context.getBean(RpcRdmaProperties.class);
			assertThat(properties.getProvider()).isEqualTo("auto");
			assertThat(properties.getServer().getPort()).isEqualTo(20049);
			assertThat(properties.getServer().getVersions()).containsExactly(1, 2);
			assertThat(properties.getServer().getInlineThresholdV2()).isEqualTo(DataSize.ofBytes(4096));
			assertThat(properties.getServer().getExecutor().getKind()).isEqualTo(RpcServer.ExecutorKind.BOUNDED_POOL);
			assertThat(properties.getMemory().getMaxRegistered()).isEqualTo(DataSize.ofMegabytes(256));
			assertThat(properties.getDdp().getChunkThreshold()).isEqualTo(DataSize.ofKilobytes(4));
			assertThat(properties.getClient()).isEmpty();
			RpcRdmaProperties.GssContexts contexts = properties.getServer().getSecurity().getKerberos().getContexts();
			GssContextLimits limits = GssContextLimits.DEFAULTS;
			assertThat(contexts.getMax()).isEqualTo(limits.maxContexts());
			assertThat(contexts.getPerConnection()).isEqualTo(limits.maxPerConnection());
			assertThat(contexts.getPerPrincipal()).isEqualTo(limits.maxPerPrincipal());
			assertThat(contexts.getCreationTimeout()).isEqualTo(limits.creationTimeout());
			assertThat(contexts.getIdleLimit()).isEqualTo(limits.idleLimit());
			RpcRdmaProperties.Client client = new RpcRdmaProperties.Client();
			assertThat(client.getBalancer()).isEqualTo(BalancerKind.ROUND_ROBIN);
			assertThat(client.getEjection().getConsecutiveFailures()).isEqualTo(5);
			assertThat(client.getEjection().getProbeInterval()).isEqualTo(Duration.ofMillis(500));
			assertThat(client.getEjection().getMaxProbeInterval()).isEqualTo(Duration.ofSeconds(30));
			assertThat(client.getEjection().getProbeTimeout()).isEqualTo(Duration.ofSeconds(2));
		});
	}

	@Test
	void bindsEveryKindOfValue() {
		this.runner.withPropertyValues("rpcrdma.provider=siw", "rpcrdma.server.port=0", "rpcrdma.server.versions=2",
				"rpcrdma.server.inline-threshold-v2=8KB", "rpcrdma.server.executor.kind=virtual-threads",
				"rpcrdma.server.shutdown-grace-period=3s", "rpcrdma.memory.slab-size=2MB",
				"rpcrdma.client.orders.address=a.example:20049,b.example:20050", "rpcrdma.client.orders.retries=0",
				"rpcrdma.client.orders.call-timeout=250ms", "rpcrdma.client.orders.balancer=power-of-two-choices",
				"rpcrdma.client.orders.ejection.consecutive-failures=2", "rpcrdma.client.orders.ejection.probe-timeout=300ms",
				"rpcrdma.ddp.chunk-threshold=16KB")
			.run((context) -> {
				RpcRdmaProperties properties = context.getBean(RpcRdmaProperties.class);
				assertThat(properties.getProvider()).isEqualTo("siw");
				assertThat(properties.getServer().getPort()).isZero();
				assertThat(properties.getServer().getVersions()).containsExactly(2);
				assertThat(properties.getServer().getInlineThresholdV2()).isEqualTo(DataSize.ofKilobytes(8));
				assertThat(properties.getServer().getExecutor().getKind())
					.isEqualTo(RpcServer.ExecutorKind.VIRTUAL_THREADS);
				assertThat(properties.getServer().getShutdownGracePeriod()).isEqualTo(Duration.ofSeconds(3));
				assertThat(properties.getMemory().getSlabSize()).isEqualTo(DataSize.ofMegabytes(2));
				RpcRdmaProperties.Client orders = properties.getClient().get("orders");
				assertThat(orders.getAddress()).containsExactly("a.example:20049", "b.example:20050");
				assertThat(orders.getRetries()).isZero();
				assertThat(orders.getCallTimeout()).isEqualTo(Duration.ofMillis(250));
				assertThat(orders.getBalancer()).isEqualTo(BalancerKind.POWER_OF_TWO_CHOICES);
				assertThat(orders.getEjection().getConsecutiveFailures()).isEqualTo(2);
				assertThat(orders.getEjection().getProbeTimeout()).isEqualTo(Duration.ofMillis(300));
				assertThat(orders.getEjection().getProbeInterval()).as("default").isEqualTo(Duration.ofMillis(500));
				assertThat(properties.getDdp().getChunkThreshold()).isEqualTo(DataSize.ofKilobytes(16));
			});
	}

	@Test
	void theOldNameOfTheChunkThresholdStillBinds() {
		this.runner.withPropertyValues("rpcrdma.conveyance.ddp-threshold=16KB")
			.run((context) -> assertThat(context.getBean(RpcRdmaProperties.class).getDdp().getChunkThreshold())
				.isEqualTo(DataSize.ofKilobytes(16)));
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', textBlock = """
			new key first | rpcrdma.ddp.chunk-threshold=8KB      | rpcrdma.conveyance.ddp-threshold=16KB
			old key first | rpcrdma.conveyance.ddp-threshold=16KB | rpcrdma.ddp.chunk-threshold=8KB
			""")
	void theNewNameWinsWhenBothAreSet(String order, String first, String second) {
		this.runner.withPropertyValues(first, second)
			.run((context) -> assertThat(context.getBean(RpcRdmaProperties.class).getDdp().getChunkThreshold())
				.isEqualTo(DataSize.ofKilobytes(8)));
	}

	@Test
	void theMetadataMarksTheOldNameDeprecatedWithItsReplacement() throws IOException {
		String metadata = ownMetadata();
		List<Map<String, Object>> old = JsonPath.read(metadata,
				"$.properties[?(@.name == 'rpcrdma.conveyance.ddp-threshold')]");
		assertThat(old).singleElement().satisfies((property) -> {
			assertThat(property).containsKey("deprecation");
			@SuppressWarnings("unchecked")
			Map<String, Object> deprecation = (Map<String, Object>) property.get("deprecation");
			assertThat(deprecation).containsEntry("replacement", "rpcrdma.ddp.chunk-threshold");
		});
		List<Map<String, Object>> current = JsonPath.read(metadata,
				"$.properties[?(@.name == 'rpcrdma.ddp.chunk-threshold')]");
		assertThat(current).singleElement().satisfies((property) -> {
			assertThat(property).doesNotContainKey("deprecation");
			assertThat(property).containsEntry("defaultValue", "4KB");
		});
	}

	/** The metadata the configuration processor wrote for this module, among those on the classpath. */
	private static String ownMetadata() throws IOException {
		Enumeration<URL> resources = RpcRdmaPropertiesTest.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json");
		while (resources.hasMoreElements()) {
			try (InputStream in = resources.nextElement().openStream()) {
				String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
				if (json.contains(RpcRdmaProperties.class.getName())) {
					return json;
				}
			}
		}
		throw new AssertionError("no spring-configuration-metadata.json describes " + RpcRdmaProperties.class.getName());
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			rpcrdma.provider                                  | infiniband | rpcrdma.provider must be one of
			rpcrdma.server.port                               | 70000      | rpcrdma.server.port must be between 0 and 65535, got 70000
			rpcrdma.server.port                               | -1         | rpcrdma.server.port must be between 0 and 65535, got -1
			rpcrdma.server.versions                           | 1,3        | rpcrdma.server.versions must list RPC-over-RDMA versions 1 and/or 2
			rpcrdma.server.inline-threshold-v1                | 512B       | rpcrdma.server.inline-threshold-v1 must be between 1KB and 1MB, got 512B
			rpcrdma.server.credits                            | 0          | rpcrdma.server.credits must be between 1 and 65535, got 0
			rpcrdma.server.credit-budget                      | 16         | rpcrdma.server.credit-budget must be between 32 and 16777216, got 16
			rpcrdma.server.max-connections                    | 0          | rpcrdma.server.max-connections must be between 1 and 1000000, got 0
			rpcrdma.server.max-connections-per-peer           | 0          | rpcrdma.server.max-connections-per-peer must be between 1 and 16384, got 0
			rpcrdma.server.max-connections-per-peer           | 20000      | rpcrdma.server.max-connections-per-peer must be between 1 and 16384, got 20000
			rpcrdma.server.executor.threads                   | 0          | rpcrdma.server.executor.threads must be between 1 and 10000, got 0
			rpcrdma.server.executor.queue-capacity            | -5         | rpcrdma.server.executor.queue-capacity must be between 0 and 1000000
			rpcrdma.server.executor.per-connection            | -1         | rpcrdma.server.executor.per-connection must be between 0 and 1000000
			rpcrdma.server.shutdown-grace-period              | -1s        | rpcrdma.server.shutdown-grace-period must be between 0s and 1h, got -1s
			rpcrdma.server.duplicate-request-cache.entries    | 10         | rpcrdma.server.duplicate-request-cache.entries must be between 256 and 10000000, got 10
			rpcrdma.server.security.kerberos.contexts.max     | 0          | rpcrdma.server.security.kerberos.contexts.max must be between 1 and 1000000, got 0
			rpcrdma.server.security.kerberos.contexts.per-connection | 0   | rpcrdma.server.security.kerberos.contexts.per-connection must be between 1 and 1000000, got 0
			rpcrdma.server.security.kerberos.contexts.per-principal | -1   | rpcrdma.server.security.kerberos.contexts.per-principal must be between 1 and 1000000, got -1
			rpcrdma.server.security.kerberos.contexts.creation-timeout | 0s | rpcrdma.server.security.kerberos.contexts.creation-timeout must be between 1s and 1h, got 0s
			rpcrdma.server.security.kerberos.contexts.idle-limit | 2d      | rpcrdma.server.security.kerberos.contexts.idle-limit must be between 0s and 1d, got 2d
			rpcrdma.memory.slab-size                          | 1KB        | rpcrdma.memory.slab-size must be between 4KB and 1GB, got 1KB
			rpcrdma.memory.largest-chunk                      | 2KB        | rpcrdma.memory.largest-chunk must be between 4KB and 1GB, got 2KB
			rpcrdma.memory.max-registered                     | 2TB        | rpcrdma.memory.max-registered must be between 1MB and 1TB, got 2TB
			rpcrdma.memory.wait-timeout                       | 2h         | rpcrdma.memory.wait-timeout must be between 0s and 1h, got 2h
			rpcrdma.client.orders.address                     | nohost     | rpcrdma.client.orders.address[0] must be host:port or rpcbind://host[:port], with a port from 1 to 65535
			rpcrdma.client.orders.address                     | h:99999    | rpcrdma.client.orders.address[0] must be host:port or rpcbind://host[:port], with a port from 1 to 65535
			rpcrdma.client.orders.address                     | rpcbind:// | names no host; write rpcbind://host
			rpcrdma.client.orders.address                     | rpcbind://h:0 | the port must be between 1 and 65535, got 0
			rpcrdma.client.orders.address                     | rpcbind://h/100003 | has more than a host and port
			rpcrdma.client.orders.address                     | rpcbind://fd00::1 | has an IPv6 host without brackets
			rpcrdma.client.orders.max-connections             | 0          | rpcrdma.client.orders.max-connections must be between 1 and 1024, got 0
			rpcrdma.client.orders.credits                     | 70000      | rpcrdma.client.orders.credits must be between 1 and 65535, got 70000
			rpcrdma.client.orders.retries                     | 101        | rpcrdma.client.orders.retries must be between 0 and 100, got 101
			rpcrdma.client.orders.call-timeout                | 0s         | rpcrdma.client.orders.call-timeout must be between 1ms and 1d, got 0s
			rpcrdma.client.orders.max-reply-size              | 10B        | rpcrdma.client.orders.max-reply-size must be between 64B and 1GB, got 10B
			rpcrdma.client.orders.ejection.consecutive-failures | 0        | rpcrdma.client.orders.ejection.consecutive-failures must be between 1 and 1000, got 0
			rpcrdma.client.orders.ejection.probe-interval     | 0s         | rpcrdma.client.orders.ejection.probe-interval must be between 1ms and 1h, got 0s
			rpcrdma.client.orders.ejection.max-probe-interval | 100ms      | rpcrdma.client.orders.ejection.max-probe-interval must be between 500ms and 1d, got 100ms
			rpcrdma.client.orders.ejection.probe-timeout      | 2h         | rpcrdma.client.orders.ejection.probe-timeout must be between 1ms and 1h, got 2h
			rpcrdma.client.orders.balancer                    | random     | random
			rpcrdma.ddp.chunk-threshold                       | 2GB        | rpcrdma.ddp.chunk-threshold must be between 0B and 1GB, got 2GB
			rpcrdma.conveyance.ddp-threshold                  | 2GB        | rpcrdma.ddp.chunk-threshold must be between 0B and 1GB, got 2GB
			""")
	void invalidValueFailsStartUpNamingThePropertyAndTheRange(String property, String value, String message) {
		this.runner.withPropertyValues(property + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(message);
		});
	}

	@Test
	void everyInvalidValueIsReportedAtOnce() {
		this.runner.withPropertyValues("rpcrdma.server.port=70000", "rpcrdma.server.credits=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("rpcrdma.server.port")
				.hasMessageContaining("rpcrdma.server.credits");
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(RpcRdmaProperties.class)
	static class PropertiesOnly {

	}

}
