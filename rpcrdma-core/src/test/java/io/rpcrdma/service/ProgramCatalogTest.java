package io.rpcrdma.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import org.junit.jupiter.api.Test;

import io.rpcrdma.service.ProgramCatalog.Dispatch;
import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.service.codec.CodecRegistry;

/**
 * Several versions of one program are served side by side, and a call for a program,
 * version or procedure that is not offered resolves to the RFC 5531 §9 error with the data
 * its reply needs.
 */
class ProgramCatalogTest {

	private final ServiceIntrospector introspector = new ServiceIntrospector(CodecRegistry.standard());

	@RpcProgram(number = 0x20000200, version = 1)
	interface KeyValueV1 {

		@RpcProcedure(1)
		String get(String key);

	}

	@RpcProgram(number = 0x20000200, version = 3)
	interface KeyValueV3 {

		@RpcProcedure(1)
		String get(String key);

		@RpcProcedure(2)
		void put(String key, String value);

	}

	@RpcProgram(number = 0x20000200, version = 3)
	interface Impostor {

		@RpcProcedure(1)
		void x();

	}

	@RpcProgram(number = 0x20000200, version = 0x80000000)
	interface HighVersion {

		@RpcProcedure(1)
		void x();

	}

	@Test
	void versionsOfOneProgramLiveSideBySide() {
		ProgramCatalog catalog = new ProgramCatalog().add(this.introspector.describe(KeyValueV3.class))
			.add(this.introspector.describe(KeyValueV1.class));
		assertThat(catalog.find(0x20000200, 1)).get().extracting(ServiceDescriptor::serviceInterface).isEqualTo(KeyValueV1.class);
		assertThat(catalog.find(0x20000200, 3)).get().extracting(ServiceDescriptor::serviceInterface).isEqualTo(KeyValueV3.class);
		assertThat(catalog.find(0x20000200, 2)).isEmpty();
		assertThat(catalog.versions(0x20000200)).contains(new VersionRange(1, 3));
		assertThat(catalog.versions(0x20000201)).isEmpty();
		assertThat(catalog.all()).extracting(ServiceDescriptor::version).containsExactly(1, 3);
	}

	@Test
	void dispatchAnswersWhatRfc5531Needs() {
		ProgramCatalog catalog = new ProgramCatalog().add(this.introspector.describe(KeyValueV1.class))
			.add(this.introspector.describe(KeyValueV3.class));
		Dispatch found = catalog.dispatch(0x20000200, 3, 2);
		assertThat(found).isInstanceOfSatisfying(Dispatch.Found.class,
				(f) -> assertThat(f.procedure().name()).isEqualTo("put"));
		assertThat(catalog.dispatch(0x20000200, 1, 0)).isInstanceOf(Dispatch.NullProcedure.class);
		assertThat(catalog.dispatch(0x20000201, 1, 1)).isEqualTo(new Dispatch.ProgramUnavailable(0x20000201));
		assertThat(catalog.dispatch(0x20000200, 2, 1)).isEqualTo(new Dispatch.ProgramMismatch(0x20000200, new VersionRange(1, 3)));
		assertThat(catalog.dispatch(0x20000200, 1, 2)).as("put exists only in version 3")
			.isInstanceOfSatisfying(Dispatch.ProcedureUnavailable.class, (p) -> assertThat(p.procedure()).isEqualTo(2));
	}

	@Test
	void versionsCompareUnsigned() {
		ProgramCatalog catalog = new ProgramCatalog().add(this.introspector.describe(KeyValueV1.class))
			.add(this.introspector.describe(HighVersion.class));
		assertThat(catalog.versions(0x20000200)).contains(new VersionRange(1, 0x80000000));
	}

	@Test
	void oneProgramVersionHasOneInterface() {
		ProgramCatalog catalog = new ProgramCatalog().add(this.introspector.describe(KeyValueV3.class));
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> catalog.add(this.introspector.describe(Impostor.class)))
			.withMessageContaining("program 0x20000200 version 3 is already served by " + KeyValueV3.class.getName())
			.withMessageContaining(Impostor.class.getName() + " needs another version or program number");
		catalog.add(this.introspector.describe(KeyValueV3.class));
		assertThat(catalog.all()).hasSize(1);
	}

}
