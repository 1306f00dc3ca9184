package io.rpcrdma.spring.boot.autoconfigure.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.rpcrdma.memory.BufferRole;
import io.rpcrdma.memory.MemoryPoolConfig;
import io.rpcrdma.memory.RegisteredMemoryPool;
import io.rpcrdma.memory.SizeClass;
import io.rpcrdma.verbs.ProviderUnavailableException;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The provider and memory pool auto-configuration: provider selection, pool settings from
 * {@code rpcrdma.memory.*}, customizers and back-off.
 */
class RpcRdmaProviderAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RpcRdmaProviderAutoConfiguration.class))
		.withPropertyValues("rpcrdma.provider=loopback");

	@Test
	void opensTheConfiguredProviderAndAPoolOnIt() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(RdmaProvider.class).hasSingleBean(RegisteredMemoryPool.class);
			assertThat(context.getBean(RdmaProvider.class).name()).isEqualTo("loopback");
			RegisteredMemoryPool pool = context.getBean(RegisteredMemoryPool.class);
			assertThat(pool.config().leaseTimeout()).isEqualTo(MemoryPoolConfig.DEFAULT_LEASE_TIMEOUT);
			assertThat(pool.largestBufferSize(BufferRole.RECEIVE)).isEqualTo(4096);
		});
	}

	@Test
	void poolFollowsTheMemoryProperties() {
		this.runner.withPropertyValues("rpcrdma.memory.slab-size=2MB", "rpcrdma.memory.smallest-chunk=8KB",
				"rpcrdma.memory.largest-chunk=64KB", "rpcrdma.memory.max-registered=64MB",
				"rpcrdma.memory.wait-timeout=250ms", "rpcrdma.server.inline-threshold-v2=16KB")
			.run((context) -> {
				MemoryPoolConfig config = context.getBean(RegisteredMemoryPool.class).config();
				assertThat(config.slabSize()).isEqualTo(2 << 20);
				assertThat(config.maxRegisteredBytes()).isEqualTo(64L << 20);
				assertThat(config.leaseTimeout()).isEqualTo(Duration.ofMillis(250));
				assertThat(config.sizeClasses()).filteredOn((c) -> c.role() == BufferRole.READ_CHUNK)
					.extracting(SizeClass::bufferSize)
					.containsExactly(8 << 10, 16 << 10, 32 << 10, 64 << 10);
				assertThat(config.sizeClasses()).filteredOn((c) -> c.role() == BufferRole.RECEIVE)
					.extracting(SizeClass::bufferSize)
					.containsExactly(16 << 10);
			});
	}

	@Test
	void receiveBuffersFitTheLargestClientInlineThreshold() {
		this.runner.withPropertyValues("rpcrdma.client.big.inline-threshold-v2=32KB").run((context) -> {
			RegisteredMemoryPool pool = context.getBean(RegisteredMemoryPool.class);
			assertThat(pool.largestBufferSize(BufferRole.RECEIVE)).isEqualTo(32 << 10);
		});
	}

	@Test
	void memorySettingsThatDoNotFitTogetherFailNamingTheProperties() {
		this.runner.withPropertyValues("rpcrdma.memory.max-registered=1MB").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.hasStackTraceContaining("The rpcrdma.memory.* settings do not fit together")
				.rootCause()
				.hasMessageContaining("raise maxRegisteredBytes");
		});
	}

	@Test
	void customizersAdjustProviderAndPoolSettings() {
		this.runner.withUserConfiguration(Customizers.class).run((context) -> {
			assertThat(context.getBean(Customizers.class).seen).isNotNull();
			assertThat(context.getBean(RegisteredMemoryPool.class).config().leakTracking()).isTrue();
		});
	}

	@Test
	void providerSettingsReachTheProviderAsTheyAre() {
		this.runner.withUserConfiguration(Customizers.class)
			.withPropertyValues("rpcrdma.provider-settings.disni.completion-mode=busy-poll",
					"rpcrdma.provider-settings.disni.poll-batch=32")
			.run((context) -> {
				RdmaProviderConfig seen = context.getBean(Customizers.class).seen;
				assertThat(seen.get("disni.completion-mode")).hasValue("busy-poll");
				assertThat(seen.getInt("disni.poll-batch", 0)).isEqualTo(32);
			});
	}

	@Test
	void unavailableProviderFailsStartUpSayingWhichAreAvailable() {
		this.runner.withPropertyValues("rpcrdma.provider=disni").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(ProviderUnavailableException.class)
				.hasMessageContaining("disni");
		});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwn() {
		this.runner.withUserConfiguration(OwnProvider.class).run((context) -> {
			assertThat(context).hasSingleBean(RdmaProvider.class).hasSingleBean(RegisteredMemoryPool.class);
			assertThat(context.getBean(RdmaProvider.class)).isSameAs(context.getBean("myProvider"));
			assertThat(context.getBean(RegisteredMemoryPool.class)).isSameAs(context.getBean("myPool"));
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Customizers {

		RdmaProviderConfig seen;

		@Bean
		RdmaProviderCustomizer providerCustomizer() {
			return (config) -> {
				this.seen = config;
				return config.with("loopback.test", "yes");
			};
		}

		@Bean
		MemoryPoolCustomizer poolCustomizer() {
			return (config) -> config.withLeakTracking(true);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnProvider {

		@Bean(destroyMethod = "close")
		RdmaProvider myProvider() {
			return RdmaProviders.open("loopback");
		}

		@Bean(destroyMethod = "close")
		RegisteredMemoryPool myPool(RdmaProvider myProvider) {
			return new RegisteredMemoryPool(myProvider.allocateProtectionDomain(), MemoryPoolConfig.defaults(1024));
		}

	}

}
