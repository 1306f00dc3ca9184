package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rpcrdma.oncrpc.VersionRange;
import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcReply;

class ProgramRegistryTest {

	private static final int PROGRAM = 100_099;

	private static final ProcedureHandler HANDLER = ProcedureHandler.of((call, arguments, results) -> results.writeInt(1));

	@Test
	void findsARegisteredProcedureWithItsIdempotence() {
		ProgramRegistry registry = new ProgramRegistry()
			.register(PROGRAM, 1, 1, Idempotence.IDEMPOTENT, HANDLER)
			.register(PROGRAM, 1, 2, HANDLER);

		RegisteredProcedure read = (RegisteredProcedure) registry.resolve(PROGRAM, 1, 1);
		assertThat(read.handler()).isSameAs(HANDLER);
		assertThat(read.idempotent()).isTrue();
		assertThat(read.builtInNull()).isFalse();
		RegisteredProcedure write = (RegisteredProcedure) registry.resolve(PROGRAM, 1, 2);
		assertThat(write.idempotent()).as("non-idempotent is the default").isFalse();
	}

	@Test
	void everyRegisteredVersionAnswersTheNullProcedure() {
		ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 2, 5, HANDLER).registerVersion(PROGRAM, 3);

		for (int version : new int[] { 2, 3 }) {
			ProcedureLookup lookup = registry.resolve(PROGRAM, version, 0);
			assertThat(lookup).isInstanceOf(RegisteredProcedure.class);
			RegisteredProcedure nullProcedure = (RegisteredProcedure) lookup;
			assertThat(nullProcedure.builtInNull()).isTrue();
			assertThat(nullProcedure.idempotent()).isTrue();
		}
	}

	@Test
	void aRegisteredNullHandlerReplacesTheBuiltInOne() {
		ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 1, 7, HANDLER)
			.register(PROGRAM, 1, 0, Idempotence.IDEMPOTENT, HANDLER);

		RegisteredProcedure nullProcedure = (RegisteredProcedure) registry.resolve(PROGRAM, 1, 0);
		assertThat(nullProcedure.builtInNull()).isFalse();
		assertThat(nullProcedure.handler()).isSameAs(HANDLER);
	}

	@Test
	void anUnknownProgramIsProgUnavail() {
		ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 1, 1, HANDLER);

		ProcedureLookup lookup = registry.resolve(PROGRAM + 1, 1, 1);
		assertThat(lookup).isSameAs(ProcedureLookup.Unavailable.PROG_UNAVAIL);
		assertThat(((ProcedureLookup.Unavailable) lookup).reply(42)).isEqualTo(RpcReply.progUnavail(42));
	}

	@Test
	void anUnknownVersionIsProgMismatchWithTheRegisteredRange() {
		ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 4, 1, HANDLER)
			.register(PROGRAM, 2, 1, HANDLER)
			.registerVersion(PROGRAM, 3);

		ProcedureLookup lookup = registry.resolve(PROGRAM, 5, 1);
		assertThat(((ProcedureLookup.Unavailable) lookup).reply(42)).isEqualTo(RpcReply.progMismatch(42, 2, 4));
		assertThat(registry.versions(PROGRAM)).contains(new VersionRange(2, 4));
		assertThat(registry.versions(PROGRAM + 1)).isEmpty();
	}

	@Test
	void versionRangeComparesVersionsUnsigned() {
		ProgramRegistry registry = new ProgramRegistry().registerVersion(PROGRAM, 0xffff_fff0).registerVersion(PROGRAM, 7);

		assertThat(((ProcedureLookup.Unavailable) registry.resolve(PROGRAM, 8, 0)).reply(1))
			.isEqualTo(RpcReply.progMismatch(1, 7, 0xffff_fff0));
	}

	@Test
	void anUnknownProcedureIsProcUnavail() {
		ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 1, 1, HANDLER);

		ProcedureLookup lookup = registry.resolve(PROGRAM, 1, 2);
		assertThat(lookup).isSameAs(ProcedureLookup.Unavailable.PROC_UNAVAIL);
		assertThat(((ProcedureLookup.Unavailable) lookup).reply(42)).isEqualTo(RpcReply.procUnavail(42));
	}

	@Test
	void aSecondRegistrationOfAProcedureIsRefusedClearly() {
		ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 1, 1, HANDLER);

		assertThatThrownBy(() -> registry.register(PROGRAM, 1, 1, HANDLER))
			.isInstanceOf(DuplicateRegistrationException.class)
			.hasMessageContaining("program 0x18703 version 1 procedure 1 is already registered");
		assertThat(((RegisteredProcedure) registry.resolve(PROGRAM, 1, 1)).handler()).isSameAs(HANDLER);
	}

	@Test
	void registrationDoesNotDisturbALookupSnapshotInUse() {
		ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 1, 1, HANDLER);
		ProcedureLookup before = registry.resolve(PROGRAM, 1, 1);

		registry.register(PROGRAM, 1, 2, HANDLER).register(PROGRAM, 2, 1, HANDLER);

		assertThat(registry.resolve(PROGRAM, 1, 1)).isEqualTo(before);
		assertThat(registry.resolve(PROGRAM, 2, 1)).isInstanceOf(RegisteredProcedure.class);
		assertThat(registry.resolve(PROGRAM, 1, 2)).isInstanceOf(RegisteredProcedure.class);
	}

}
