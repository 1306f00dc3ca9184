package io.rpcrdma.spring.boot.autoconfigure.backchannel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.rpcrdma.backchannel.CallbackServices;
import io.rpcrdma.client.ProgramUnavailableException;
import io.rpcrdma.server.BackwardDirectionUnavailableException;
import io.rpcrdma.service.RemoteRpcException;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.spring.boot.RpcCallbackService;
import io.rpcrdma.spring.boot.RpcCallbacks;
import io.rpcrdma.spring.boot.RpcService;
import io.rpcrdma.spring.boot.autoconfigure.RpcRdmaAutoConfigurations;
import io.rpcrdma.spring.boot.client.ImportRpcClients;
import io.rpcrdma.spring.boot.client.RpcClientFactory;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/**
 * An {@code @RpcService} method calling its caller back through {@link RpcCallbacks}, to an
 * {@link RpcCallbackService @RpcCallbackService} of the calling application, on the same
 * connection (RFC 8167); and what goes wrong, said plainly, when either side lacks its part.
 * The application calls its own server, so both ends run in one context.
 */
class RpcRdmaBackchannelAutoConfigurationTest {

	private final ApplicationContextRunner runner = RpcRdmaAutoConfigurations.runner("backchannel-auto-configuration");

	@Test
	void aServiceCallsItsCallerBackDuringTheCall() {
		this.runner.withUserConfiguration(Notifier.class, RecordingListener.class, ImportNotices.class)
			.withPropertyValues("rpcrdma.backchannel.credits=3")
			.run((context) -> {
				Notices notices = context.getBean(Notices.class);

				assertThat(notices.publish("boot")).isEqualTo("heard boot");
				assertThat(context.getBean(RecordingListener.class).heard).containsExactly("boot");
				assertThat(context.getBean(CallbackServices.class).credits()).isEqualTo(3);
				assertThat(context.getBean(CallbackServices.class).programs().versions(0x20000c11)).isPresent();
				assertThat(context.getBean(RpcClientFactory.class).pools()).containsOnlyKeys("default");
			});
	}

	@Test
	void aCallerWithoutCallbackServicesIsReportedToTheServiceTyped() {
		this.runner.withUserConfiguration(Notifier.class, ImportNotices.class).run((context) -> {
			assertThat(context).doesNotHaveBean(CallbackServices.class);

			// The service let the failure go: it reaches the caller as the service's fault.
			assertThatExceptionOfType(RemoteRpcException.class)
				.isThrownBy(() -> context.getBean(Notices.class).publish("nobody"))
				.withMessageContaining(ProgramUnavailableException.class.getName())
				.withMessageContaining(Integer.toUnsignedString(0x20000c11))
				.withMessageContaining("@RpcCallbackService")
				.withMessageContaining("backward direction");
		});
	}

	@Test
	void aServerWithoutBackwardCreditsSaysWhichPropertyToSet() {
		this.runner.withUserConfiguration(Notifier.class, RecordingListener.class, ImportNotices.class)
			.withPropertyValues("rpcrdma.server.backchannel.credits=0")
			.run((context) -> {
				assertThatExceptionOfType(BackwardDirectionUnavailableException.class)
					.isThrownBy(() -> context.getBean(Notices.class).publish("x"))
					.withMessageContaining("rpcrdma.server.backchannel.credits");
				assertThat(context.getBean(RecordingListener.class).heard).isEmpty();
			});
	}

	@Test
	void outOfRangeBackchannelSettingsFailStartUpNamingTheProperty() {
		this.runner.withUserConfiguration(RecordingListener.class)
			.withPropertyValues("rpcrdma.backchannel.credits=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("rpcrdma.backchannel.credits"));
	}

	/** The server's program. */
	@RpcProgram(number = 0x20000c10, version = 1)
	public interface Notices {

		@RpcProcedure(1)
		String publish(String topic);

	}

	/** What the calling application serves back. */
	@RpcProgram(number = 0x20000c11, version = 1)
	public interface Listener {

		@RpcProcedure(1)
		String notify(String topic);

	}

	@RpcService
	static class Notifier implements Notices {

		private final RpcCallbacks callbacks;

		Notifier(RpcCallbacks callbacks) {
			this.callbacks = callbacks;
		}

		@Override
		public String publish(String topic) {
			return this.callbacks.forCaller(Listener.class).notify(topic);
		}

	}

	@RpcCallbackService
	static class RecordingListener implements Listener {

		final List<String> heard = new CopyOnWriteArrayList<>();

		@Override
		public String notify(String topic) {
			this.heard.add(topic);
			return "heard " + topic;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportRpcClients(Notices.class)
	static class ImportNotices {

	}

}
