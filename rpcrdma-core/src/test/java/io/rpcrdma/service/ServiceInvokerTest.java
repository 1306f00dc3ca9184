package io.rpcrdma.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;

import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Decoded arguments reach the implementation's method, and its result or exception comes
 * back as a future for synchronous and asynchronous methods alike.
 */
class ServiceInvokerTest {

	private final ServiceDescriptor service = new ServiceIntrospector(CodecRegistry.standard())
		.describe(ServiceIntrospectorTest.Calculator.class);

	static final class Calculator implements ServiceIntrospectorTest.Calculator {

		@Override
		public int add(int a, int b) {
			return a + b;
		}

		@Override
		public CompletableFuture<Long> sumAsync(List<Integer> values) {
			return (values == null) ? null : CompletableFuture.supplyAsync(() -> values.stream().mapToLong(Integer::longValue).sum());
		}

		@Override
		public void reset() {
			throw new IllegalStateException("cannot reset");
		}

		@Override
		public byte[] read(String path, ByteBuffer data) {
			return path.getBytes();
		}

		@Override
		public CompletableFuture<Void> flush(String reason) {
			return CompletableFuture.failedFuture(new UnsupportedOperationException(reason));
		}

	}

	@Test
	void decodedArgumentsReachTheMethodAndTheResultEncodes() throws Exception {
		ServiceInvoker invoker = ServiceInvoker.bind(this.service, new Calculator());
		ProcedureDescriptor add = this.service.procedure(1).orElseThrow();
		ByteBuffer call = ByteBuffer.allocate(8).putInt(40).putInt(2).flip();
		Object result = invoker.invoke(add, add.decodeArguments(new XdrDecoder(call))).get();
		assertThat(result).isEqualTo(42);
		XdrEncoder reply = new XdrEncoder(ByteBuffer.allocate(add.resultSize(result)));
		add.encodeResult(result, reply);
		assertThat(reply.buffer().flip().getInt()).isEqualTo(42);
	}

	@Test
	void asynchronousMethodsCompleteWithTheirFuture() throws Exception {
		ServiceInvoker invoker = ServiceInvoker.bind(this.service, new Calculator());
		assertThat(invoker.invoke(this.service.procedure(2).orElseThrow(), new Object[] { List.of(1, 2, 3) }).get()).isEqualTo(6L);
		CompletableFuture<Object> flushed = invoker.invoke(this.service.procedure(5).orElseThrow(), new Object[] { "busy" });
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(flushed::get)
			.withCauseInstanceOf(UnsupportedOperationException.class);
		CompletableFuture<Object> nullFuture = invoker.invoke(this.service.procedure(2).orElseThrow(), new Object[] { null });
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(nullFuture::get)
			.withMessageContaining("returned null instead of a CompletableFuture");
	}

	@Test
	void exceptionsOfSynchronousMethodsFailTheFuture() {
		ServiceInvoker invoker = ServiceInvoker.bind(this.service, new Calculator());
		CompletableFuture<Object> reset = invoker.invoke(this.service.procedure(3).orElseThrow(), new Object[0]);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(reset::get)
			.withCauseInstanceOf(IllegalStateException.class)
			.withMessageContaining("cannot reset");
	}

	@Test
	void misuseIsRejected() {
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> ServiceInvoker.bind(this.service, "not a calculator"))
			.withMessage("java.lang.String does not implement " + ServiceIntrospectorTest.Calculator.class.getName());
		ServiceInvoker invoker = ServiceInvoker.bind(this.service, new Calculator());
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> invoker.invoke(this.service.procedure(1).orElseThrow(), new Object[] { 1 }))
			.withMessage("add takes 2 arguments but 1 were given");
	}

}
