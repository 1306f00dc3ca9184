package io.rpcrdma.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.server.Idempotence;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.RegisteredProcedure;
import io.rpcrdma.server.ProcedureLookup;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Exporting implementations into a {@link ProgramRegistry}: every procedure registered with
 * its idempotence, versions side by side, and conflicts refused before anything is registered.
 */
class ServiceExporterTest {

	@RpcProgram(number = 0x20000900, version = 1, name = "Echo")
	interface EchoV1 {

		@RpcProcedure(1)
		@Idempotent
		String echo(String text);

		@RpcProcedure(2)
		int bump(int by);

	}

	@RpcProgram(number = 0x20000900, version = 3, name = "Echo")
	interface EchoV3 {

		@RpcProcedure(1)
		String shout(String text);

	}

	@RpcProgram(number = 0x20000901, version = 1)
	interface Other {

		@RpcProcedure(1)
		void ping();

	}

	static class Both implements EchoV1, EchoV3 {

		@Override
		public String echo(String text) {
			return text;
		}

		@Override
		public int bump(int by) {
			return by + 1;
		}

		@Override
		public String shout(String text) {
			return text.toUpperCase();
		}

	}

	static class SubclassOfBoth extends Both implements Other {

		@Override
		public void ping() {
		}

	}

	private final ProgramRegistry registry = new ProgramRegistry();

	private final ServiceExporter exporter = new ServiceExporter(new ServiceIntrospector(CodecRegistry.standard()),
			this.registry);

	@Test
	void exportsEveryProgramInterfaceOfTheClassHierarchy() {
		assertThat(this.exporter.export(new SubclassOfBoth())).extracting((service) -> (Object) service.descriptor().serviceInterface())
			.containsExactlyInAnyOrder(Other.class, EchoV1.class, EchoV3.class);
		assertThat(this.registry.versions(0x20000900)).contains(new VersionRange(1, 3));
		assertThat(this.registry.resolve(0x20000900, 2, 1)).isInstanceOfSatisfying(ProcedureLookup.Unavailable.class,
				(mismatch) -> assertThat(mismatch.kind()).isEqualTo(ProcedureLookup.Unavailable.Kind.PROG_MISMATCH));
		assertThat(this.registry.resolve(0x20000900, 1, 1)).isInstanceOfSatisfying(RegisteredProcedure.class,
				(procedure) -> assertThat(procedure.idempotence()).isEqualTo(Idempotence.IDEMPOTENT));
		assertThat(this.registry.resolve(0x20000900, 1, 2)).isInstanceOfSatisfying(RegisteredProcedure.class,
				(procedure) -> assertThat(procedure.idempotence()).isEqualTo(Idempotence.NON_IDEMPOTENT));
		assertThat(this.exporter.exported()).hasSize(3);
	}

	@Test
	void registeredHandlerDecodesCallsTheImplementationAndWritesTheResultUnion() throws Exception {
		this.exporter.export(EchoV1.class, new Both());
		RegisteredProcedure bump = (RegisteredProcedure) this.registry.resolve(0x20000900, 1, 2);
		ByteBuffer arguments = ByteBuffer.allocate(4).putInt(0, 41);
		ByteBuffer results = ByteBuffer.allocate(16);
		bump.handler().handle(null, new XdrDecoder(arguments), new XdrEncoder(results)).toCompletableFuture().get();
		results.flip();
		assertThat(results.getInt()).isEqualTo(ProcedureResults.RESULT);
		assertThat(results.getInt()).isEqualTo(42);
		assertThat(results.hasRemaining()).isFalse();
	}

	@Test
	void aSecondImplementationOfAServedVersionIsRefusedAndNothingIsRegistered() {
		this.exporter.export(EchoV1.class, new Both());
		assertThatExceptionOfType(ServiceExportException.class).isThrownBy(() -> this.exporter.export(new SubclassOfBoth()))
			.withMessageContaining("program 0x20000900 version 1")
			.withMessageContaining("already served by " + Both.class.getName())
			.withMessageContaining("@RpcProgram(number = ..., version = ...)");
		// All or nothing: neither EchoV3 nor Other was registered by the refused export.
		assertThat(this.registry.versions(0x20000901)).isEmpty();
		assertThat(this.registry.versions(0x20000900)).contains(new VersionRange(1, 1));
	}

	@Test
	void aVersionRegisteredByOtherCodeIsAConflict() {
		this.registry.registerVersion(0x20000901, 1);
		assertThatExceptionOfType(ServiceExportException.class).isThrownBy(() -> this.exporter.export(new SubclassOfBoth()))
			.withMessageContaining("already registered in the program registry by other code");
	}

	@Test
	void anObjectWithoutServiceInterfacesIsRefused() {
		assertThatExceptionOfType(ServiceExportException.class).isThrownBy(() -> this.exporter.export("plain"))
			.withMessage("java.lang.String implements no interface annotated @RpcProgram; declare the service as an"
					+ " interface with @RpcProgram and implement it");
	}

}
