package io.rpcrdma.service.codec;

import java.lang.reflect.Type;

/**
 * Supplies codecs for an application's own types (a Protobuf message carried as opaque, a
 * DTO with its own layout), consulted by a {@link CodecRegistry} before its built-in rules.
 * Register one programmatically with {@link CodecRegistry.Builder#provider(XdrCodecProvider)}
 * or list it in {@code META-INF/services/io.rpcrdma.service.codec.XdrCodecProvider} and build
 * the registry with {@link CodecRegistry.Builder#discoverProviders(ClassLoader)}.
 * <p>
 * A provider's codec should override {@link XdrCodec#shape()} so services using it can be
 * exported as an XDR language file.
 */
public interface XdrCodecProvider {

	/**
	 * @param type the Java type (a {@link Class} or a {@link java.lang.reflect.ParameterizedType})
	 * @param registry the asking registry, for codecs of nested types and its limits
	 * @return a codec for {@code type}, or {@code null} if this provider does not handle it
	 */
	XdrCodec<?> codecFor(Type type, CodecRegistry registry);

}
