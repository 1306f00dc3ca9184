package io.rpcrdma.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;

import org.junit.jupiter.api.Test;

/**
 * A fault's type name comes from the peer: it is rebuilt as that type only when that is safe
 * and allowed, and otherwise arrives as a {@link RemoteRpcException}.
 */
class FaultTranslatorTest {

	interface Api {

		void plain();

		void declares() throws IOException;

	}

	/** Initialising this class would flip the flag: looking it up must not. */
	public static class Booby extends Exception {

		private static final long serialVersionUID = 1L;

		static {
			boobyInitialised = true;
		}

		public Booby(String message) {
			super(message);
		}

	}

	/** Set by {@link Booby}'s initialiser; kept here so reading it does not initialise Booby. */
	static volatile boolean boobyInitialised;

	private final FaultTranslator translator = new FaultTranslator(getClass().getClassLoader());

	private static Method method(String name) throws NoSuchMethodException {
		return Api.class.getMethod(name);
	}

	private Throwable translate(String type, String methodName) throws NoSuchMethodException {
		return this.translator.translate(new RemoteFault(5, type, "why"), method(methodName), "Api." + methodName + " at here");
	}

	@Test
	void runtimeExceptionsAreRebuiltWithTheRemoteDetailsSuppressed() throws Exception {
		Throwable rebuilt = translate(IllegalArgumentException.class.getName(), "plain");
		assertThat(rebuilt).isExactlyInstanceOf(IllegalArgumentException.class).hasMessage("why");
		assertThat(rebuilt.getSuppressed()).singleElement()
			.isInstanceOfSatisfying(RemoteRpcException.class, (remote) -> assertThat(remote.code()).isEqualTo(5));
	}

	@Test
	void checkedExceptionsOnlyWhenTheMethodDeclaresThem() throws Exception {
		assertThat(translate(IOException.class.getName(), "declares")).isExactlyInstanceOf(IOException.class);
		assertThat(translate(IOException.class.getName(), "plain")).isInstanceOfSatisfying(RemoteRpcException.class,
				(remote) -> assertThat(remote.remoteType()).isEqualTo("java.io.IOException"));
	}

	@Test
	void errorsUnknownTypesAndNonThrowablesAreNeverBuilt() throws Exception {
		assertThat(translate(OutOfMemoryError.class.getName(), "plain")).isInstanceOf(RemoteRpcException.class);
		assertThat(translate("com.example.Missing", "plain")).isInstanceOf(RemoteRpcException.class);
		assertThat(translate(String.class.getName(), "plain")).isInstanceOf(RemoteRpcException.class);
		assertThat(translate(Thread.class.getName(), "plain")).isInstanceOf(RemoteRpcException.class);
	}

	@Test
	void lookingUpATypeDoesNotInitialiseIt() throws Exception {
		// A checked exception the method does not declare: looked up, found, never built.
		assertThat(translate(Booby.class.getName(), "plain")).isInstanceOf(RemoteRpcException.class);
		assertThat(boobyInitialised).isFalse();
	}

	@Test
	void messageNamesTheCall() throws Exception {
		assertThat(translate("com.example.Missing", "plain"))
			.hasMessage("com.example.Missing: why (code 5, thrown by Api.plain at here)");
	}

}
