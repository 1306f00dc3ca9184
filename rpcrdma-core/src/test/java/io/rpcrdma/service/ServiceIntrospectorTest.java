package io.rpcrdma.service;

import static io.rpcrdma.xdr.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;

import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.service.codec.VoidCodec;
import io.rpcrdma.service.codec.XdrOptional;
import io.rpcrdma.xdr.Hex;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Binding an interface to an ONC RPC program: numbers, codecs and markings come out as
 * declared or derived deterministically, and every mistake is reported at bind time with
 * the method, parameter and type named.
 */
class ServiceIntrospectorTest {

	private final ServiceIntrospector introspector = new ServiceIntrospector(CodecRegistry.standard());

	record User(String name, int id) {
	}

	@RpcProgram(number = 0x20000101, version = 2, name = "Calc")
	interface Calculator {

		@RpcProcedure(1)
		@Idempotent
		int add(int a, int b);

		@RpcProcedure(2)
		CompletableFuture<Long> sumAsync(List<Integer> values);

		@RpcProcedure(3)
		void reset();

		@RpcProcedure(4)
		@Bulk(maxBytes = 1 << 20)
		byte[] read(String path, @Bulk(maxBytes = 4096) ByteBuffer data);

		@RpcProcedure(5)
		CompletableFuture<Void> flush(@XdrOptional String reason);

		default int twice(int x) {
			return add(x, x);
		}

		static Calculator none() {
			return null;
		}

		@Override
		String toString();

	}

	@RpcProgram
	interface Derived {

		String hello(String name);

		int count();

		void zap(long when);

	}

	@Test
	void explicitNumbersAndMarkingsAreKept() {
		ServiceDescriptor service = this.introspector.describe(Calculator.class);
		assertThat(service.program()).isEqualTo(0x20000101);
		assertThat(service.version()).isEqualTo(2);
		assertThat(service.name()).isEqualTo("Calc");
		assertThat(service.procedures()).extracting(ProcedureDescriptor::name).containsExactly("add", "sumAsync", "reset", "read", "flush");
		assertThat(service.procedures()).extracting(ProcedureDescriptor::number).containsExactly(1, 2, 3, 4, 5);

		ProcedureDescriptor add = service.procedure(1).orElseThrow();
		assertThat(add.idempotent()).isTrue();
		assertThat(add.returnsFuture()).isFalse();
		assertThat(add.resultType()).isEqualTo(int.class);
		assertThat(add.hasBulk()).isFalse();

		ProcedureDescriptor sum = service.procedure(2).orElseThrow();
		assertThat(sum.returnsFuture()).isTrue();
		assertThat(sum.resultType()).as("the future's type argument").isEqualTo(Long.class);
		assertThat(sum.idempotent()).isFalse();

		assertThat(service.procedure(3).orElseThrow().resultCodec()).isSameAs(VoidCodec.INSTANCE);
		ProcedureDescriptor flush = service.procedure(5).orElseThrow();
		assertThat(flush.resultType()).as("CompletableFuture<Void> has no result").isEqualTo(void.class);
		assertThat(flush.returnsFuture()).isTrue();

		ProcedureDescriptor read = service.procedure(4).orElseThrow();
		assertThat(read.resultBulk()).isEqualTo(BulkSpec.of(1 << 20));
		assertThat(read.parameters().get(0).bulk()).isEqualTo(BulkSpec.NONE);
		assertThat(read.parameters().get(1).bulk()).isEqualTo(BulkSpec.of(4096));
		assertThat(read.parameters().get(1).codec().ddpEligible()).isTrue();
		assertThat(read.hasBulk()).isTrue();
	}

	@Test
	void defaultStaticAndObjectMethodsAreNotRemote() throws NoSuchMethodException {
		ServiceDescriptor service = this.introspector.describe(Calculator.class);
		assertThat(service.procedure(Calculator.class.getMethod("twice", int.class))).isEmpty();
		assertThat(service.procedure(Calculator.class.getMethod("toString"))).isEmpty();
		assertThat(service.procedure(Calculator.class.getMethod("add", int.class, int.class))).isPresent();
		assertThat(service.procedure(0)).as("NULL is the server's, not a method").isEmpty();
	}

	@Test
	void argumentsAndResultsAreEncodedInParameterOrder() {
		ProcedureDescriptor add = this.introspector.describe(Calculator.class).procedure(1).orElseThrow();
		XdrEncoder encoder = new XdrEncoder(ByteBuffer.allocate(add.argumentsSize(new Object[] { 2, 3 })));
		add.encodeArguments(new Object[] { 2, 3 }, encoder);
		byte[] wire = Hex.bytes(encoder.buffer().flip());
		assertThat(Hex.units(wire)).isEqualTo(Hex.units(hex("00000002 // a \n 00000003 // b")));
		assertThat(add.decodeArguments(new XdrDecoder(ByteBuffer.wrap(wire)))).containsExactly(2, 3);
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> add.encodeArguments(new Object[] { 1 }, encoder))
			.withMessage("add takes 2 arguments but 1 were given");

		ProcedureDescriptor flush = this.introspector.describe(Calculator.class).procedure(5).orElseThrow();
		XdrEncoder flushEncoder = new XdrEncoder(ByteBuffer.allocate(8));
		flush.encodeArguments(new Object[] { null }, flushEncoder);
		assertThat(Hex.units(flushEncoder.buffer().flip())).as("@XdrOptional parameter, absent").isEqualTo("00000000");
	}

	@Test
	void derivedNumbersAreDeterministicAndInTheUserDefinedRange() {
		ServiceDescriptor first = this.introspector.describe(Derived.class);
		ServiceDescriptor second = new ServiceIntrospector(CodecRegistry.standard()).describe(Derived.class);
		assertThat(first.program()).isEqualTo(second.program()).isEqualTo(ProgramNumbers.derive(Derived.class.getName()));
		assertThat(first.program()).isBetween(ProgramNumbers.USER_DEFINED_FIRST, ProgramNumbers.USER_DEFINED_LAST);
		assertThat(first.version()).isEqualTo(1);
		assertThat(first.name()).isEqualTo("Derived");
		// sorted by canonical signature: count(), hello(java.lang.String), zap(long)
		assertThat(first.procedures()).extracting(ProcedureDescriptor::name).containsExactly("count", "hello", "zap");
		assertThat(first.procedures()).extracting(ProcedureDescriptor::number).containsExactly(1, 2, 3);
		assertThat(second.procedures()).extracting(ProcedureDescriptor::number).containsExactly(1, 2, 3);
	}

	@Test
	void programNumberHashIsFnv1aOverUtf8MappedIntoTheUserRange() {
		// FNV-1a 32-bit reference values
		assertThat(ProgramNumbers.fnv1a32(new byte[0])).isEqualTo(0x811c9dc5);
		assertThat(ProgramNumbers.fnv1a32("a".getBytes())).isEqualTo(0xe40c292c);
		assertThat(ProgramNumbers.fnv1a32("foobar".getBytes())).isEqualTo(0xbf9cf968);
		// pinned, so any change of the derivation (which would renumber deployed services) fails here
		assertThat(ProgramNumbers.derive("a")).isEqualTo(0x240c292c);
		assertThat(ProgramNumbers.derive("io.rpcrdma.example.Calculator")).isEqualTo(0x2e01674a);
		assertThat(ProgramNumbers.derive("")).isEqualTo(0x211c9dc5);
	}

	@Test
	void chosenNumbersAreLogged() {
		Logger logger = Logger.getLogger(ServiceIntrospector.class.getName());
		List<LogRecord> records = new ArrayList<>();
		Handler handler = new Handler() {
			@Override
			public void publish(LogRecord record) {
				records.add(record);
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}
		};
		logger.addHandler(handler);
		try {
			ServiceDescriptor service = this.introspector.describe(Derived.class);
			assertThat(records).hasSize(1);
			LogRecord record = records.get(0);
			assertThat(record.getLevel()).isEqualTo(Level.INFO);
			String message = java.text.MessageFormat.format(record.getMessage(), record.getParameters());
			assertThat(message).contains(Derived.class.getName())
				.contains(ProgramNumbers.hex(service.program()))
				.contains("derived from the interface name by FNV-1a")
				.contains("derived from sorted signatures")
				.contains("count=1, hello=2, zap=3");
		}
		finally {
			logger.removeHandler(handler);
		}
	}

	interface Repository<T, K> {

		T get(K key);

		void put(K key, T value);

	}

	@RpcProgram(number = 0x20000102)
	interface Users extends Repository<User, Integer> {

		List<User> all();

	}

	@Test
	void typeVariablesOfGenericSuperinterfacesAreResolved() {
		ServiceDescriptor service = this.introspector.describe(Users.class);
		assertThat(service.procedures()).extracting(ProcedureDescriptor::name).containsExactly("all", "get", "put");
		ProcedureDescriptor get = service.procedures().get(1);
		assertThat(get.resultType()).isEqualTo(User.class);
		assertThat(get.parameters().get(0).type()).isEqualTo(Integer.class);
		assertThat(service.procedures().get(2).parameters().get(1).type()).isEqualTo(User.class);
	}

	// ---- mistakes, each with its message ----

	static class NotAnInterface {
	}

	interface NotAnnotated {

		void a();

	}

	@RpcProgram
	interface ProcedureZero {

		@RpcProcedure(0)
		void ping();

	}

	@RpcProgram
	interface Duplicate {

		@RpcProcedure(1)
		void a();

		@RpcProcedure(1)
		void b();

	}

	@RpcProgram
	interface Overloaded {

		void f(int x);

		void f(String x);

	}

	@RpcProgram
	interface Mixed {

		@RpcProcedure(1)
		void a();

		void b();

	}

	@RpcProgram
	interface Unsupported {

		void put(String key, Object value);

	}

	@RpcProgram
	interface GenericMethod {

		<T> T echo(T value);

	}

	@RpcProgram
	interface GenericService<T> {

		T get();

	}

	@RpcProgram
	interface BulkOnInt {

		void write(@Bulk(maxBytes = 10) int length);

	}

	@RpcProgram
	interface LendingWhatIsNotBulkData {

		@Bulk(maxBytes = 1 << 20, lend = true)
		byte[] read(String path);

		void write(@Bulk(maxBytes = 1 << 20, lend = true) BulkData data);

	}

	@RpcProgram
	interface RawFuture {

		@SuppressWarnings("rawtypes")
		CompletableFuture get();

	}

	@RpcProgram
	interface Empty {

		default void local() {
		}

	}

	@RpcProgram
	interface UnsupportedResult {

		Thread current();

	}

	@RpcProgram
	interface Several {

		void a(Object x);

		Thread b();

	}

	@Test
	void classesAreNotServices() {
		assertProblem(NotAnInterface.class, NotAnInterface.class.getName()
				+ " is not an interface; declare the service as a Java interface annotated @RpcProgram");
	}

	@Test
	void theProgramAnnotationIsRequired() {
		assertProblem(NotAnnotated.class, "interface " + NotAnnotated.class.getName() + " has no @RpcProgram annotation");
	}

	@Test
	void procedureZeroIsReservedForNull() {
		assertProblem(ProcedureZero.class,
				"ProcedureZero.ping() has @RpcProcedure(0), but procedure 0 is reserved for the NULL procedure (RFC 5531 §12.1");
	}

	@Test
	void duplicateNumbersAreNamed() {
		assertProblem(Duplicate.class, "duplicate procedure number 1: Duplicate.a() and Duplicate.b() both have @RpcProcedure(1)");
	}

	@Test
	void overloadsNeedExplicitNumbers() {
		assertProblem(Overloaded.class,
				"overloaded methods Overloaded.f(int) and Overloaded.f(String) need explicit @RpcProcedure numbers");
	}

	@Test
	void numbersAreAllOrNothing() {
		assertProblem(Mixed.class, "some methods have @RpcProcedure numbers and some do not (Mixed.b()); give every remote method of Mixed a number or none");
	}

	@Test
	void unsupportedParameterNamesMethodIndexTypeAndRemedy() {
		assertProblem(Unsupported.class, "Unsupported.put(String, Object) parameter 1 (java.lang.Object): no XDR codec for type java.lang.Object; "
				+ "supported are primitives and their boxes, String, byte[], ByteBuffer, enums, records");
		assertProblem(Unsupported.class, "register an XdrCodecProvider");
		assertProblem(UnsupportedResult.class, "UnsupportedResult.current() result (java.lang.Thread): no XDR codec for type java.lang.Thread");
	}

	@Test
	void unresolvableTypeVariablesAreRejected() {
		assertProblem(GenericMethod.class, "GenericMethod.echo(Object) declares type variable T, which cannot be resolved when decoding");
		assertProblem(GenericService.class, "interface " + GenericService.class.getName() + " is generic (T), so its type variables cannot be resolved");
	}

	@Test
	void bulkIsOnlyForOpaqueData() {
		assertProblem(BulkOnInt.class, "BulkOnInt.write(int) parameter 0 (int): @Bulk marks DDP-eligible opaque data (RFC 8166 §6.1), but int is not");
		assertProblem(LendingWhatIsNotBulkData.class, "LendingWhatIsNotBulkData.read(String) result (byte[]): @Bulk(lend = true)"
				+ " lends a BulkData the caller closes");
		assertProblem(LendingWhatIsNotBulkData.class, "an argument is never lent");
	}

	@Test
	void futuresNeedTheirResultType() {
		assertProblem(RawFuture.class, "RawFuture.get() returns a raw CompletableFuture; declare its result type");
	}

	@Test
	void anInterfaceWithoutRemoteMethodsIsRejected() {
		assertProblem(Empty.class, "declares no abstract methods");
	}

	@Test
	void everyProblemIsReportedAtOnce() {
		assertThatExceptionOfType(ServiceDefinitionException.class).isThrownBy(() -> this.introspector.describe(Several.class))
			.withMessageStartingWith("cannot bind " + Several.class.getName() + " as an RPC program (2 problems):")
			.satisfies((ex) -> assertThat(ex.problems()).hasSize(2)
				.anySatisfy((problem) -> assertThat(problem).startsWith("Several.a(Object) parameter 0 (java.lang.Object)"))
				.anySatisfy((problem) -> assertThat(problem).startsWith("Several.b() result (java.lang.Thread)")));
	}

	private void assertProblem(Class<?> type, String expected) {
		assertThatExceptionOfType(ServiceDefinitionException.class).isThrownBy(() -> this.introspector.describe(type))
			.withMessageContaining("cannot bind " + type.getName() + " as an RPC program")
			.withMessageContaining(expected);
	}

}
