package io.rpcrdma.service;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Objects;

import io.rpcrdma.service.codec.XdrCodec;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * One remote procedure: a method of a service interface with its procedure number, its
 * arguments' and result's codecs, and what retries and the transport need to know. The
 * arguments are encoded one after another in parameter order, which is the XDR of an
 * {@code _args} struct of them (see {@link io.rpcrdma.service.xdrlang.XdrLanguageWriter}).
 *
 * @param number the procedure number (never 0, the NULL procedure)
 * @param method the interface method
 * @param name the method's name
 * @param parameters the arguments in order
 * @param resultType the result type, {@code void.class} for none; for an asynchronous
 * method, the future's type argument
 * @param resultCodec how the result is encoded ({@link io.rpcrdma.service.codec.VoidCodec} for none)
 * @param idempotent whether the method is {@link Idempotent}
 * @param resultBulk whether the result is DDP-eligible bulk data ({@link Bulk} on the method)
 * @param returnsFuture whether the method returns {@link java.util.concurrent.CompletableFuture}
 */
public record ProcedureDescriptor(int number, Method method, String name, List<ParameterDescriptor> parameters, Type resultType,
		XdrCodec<?> resultCodec, boolean idempotent, BulkSpec resultBulk, boolean returnsFuture) {

	public ProcedureDescriptor {
		if (number == 0) {
			throw new IllegalArgumentException("procedure 0 is the NULL procedure (RFC 5531 §12.1)");
		}
		Objects.requireNonNull(method, "method");
		Objects.requireNonNull(name, "name");
		parameters = List.copyOf(parameters);
		Objects.requireNonNull(resultType, "resultType");
		Objects.requireNonNull(resultCodec, "resultCodec");
		Objects.requireNonNull(resultBulk, "resultBulk");
	}

	/**
	 * @return the codecs of the arguments, in order
	 */
	public List<XdrCodec<?>> parameterCodecs() {
		return this.parameters.stream().<XdrCodec<?>>map(ParameterDescriptor::codec).toList();
	}

	/**
	 * @return whether any argument or the result is bulk data
	 */
	public boolean hasBulk() {
		return this.resultBulk.bulk() || this.parameters.stream().anyMatch((parameter) -> parameter.bulk().bulk());
	}

	/**
	 * Writes the call's arguments (RFC 5531 §9: the procedure-specific parameters follow the
	 * call header).
	 * @param arguments one value per parameter ({@code null} or empty for none)
	 * @param out the encoder
	 */
	@SuppressWarnings("unchecked")
	public void encodeArguments(Object[] arguments, XdrEncoder out) {
		checkArity(arguments);
		for (int i = 0; i < this.parameters.size(); i++) {
			((XdrCodec<Object>) this.parameters.get(i).codec()).encode(arguments[i], out);
		}
	}

	/**
	 * @param arguments one value per parameter
	 * @return exactly how many bytes {@link #encodeArguments} writes
	 */
	@SuppressWarnings("unchecked")
	public int argumentsSize(Object[] arguments) {
		checkArity(arguments);
		int size = 0;
		for (int i = 0; i < this.parameters.size(); i++) {
			size += ((XdrCodec<Object>) this.parameters.get(i).codec()).encodedSize(arguments[i]);
		}
		return size;
	}

	/**
	 * Reads a call's arguments.
	 * @param in the decoder, positioned after the call header
	 * @return one value per parameter
	 */
	public Object[] decodeArguments(XdrDecoder in) {
		Object[] arguments = new Object[this.parameters.size()];
		for (int i = 0; i < arguments.length; i++) {
			arguments[i] = this.parameters.get(i).codec().decode(in);
		}
		return arguments;
	}

	/**
	 * Writes the result of a successful call (RFC 5531 §9: the results follow an accepted
	 * reply with SUCCESS).
	 * @param result the method's result ({@code null} for void)
	 * @param out the encoder
	 */
	@SuppressWarnings("unchecked")
	public void encodeResult(Object result, XdrEncoder out) {
		((XdrCodec<Object>) this.resultCodec).encode(result, out);
	}

	/**
	 * @param result the method's result
	 * @return exactly how many bytes {@link #encodeResult} writes
	 */
	@SuppressWarnings("unchecked")
	public int resultSize(Object result) {
		return ((XdrCodec<Object>) this.resultCodec).encodedSize(result);
	}

	/**
	 * @param in the decoder, positioned after an accepted reply header with SUCCESS
	 * @return the result ({@code null} for void)
	 */
	public Object decodeResult(XdrDecoder in) {
		return this.resultCodec.decode(in);
	}

	private void checkArity(Object[] arguments) {
		int given = (arguments != null) ? arguments.length : 0;
		if (given != this.parameters.size()) {
			throw new IllegalArgumentException(this.name + " takes " + this.parameters.size() + " arguments but " + given + " were given");
		}
	}

}
