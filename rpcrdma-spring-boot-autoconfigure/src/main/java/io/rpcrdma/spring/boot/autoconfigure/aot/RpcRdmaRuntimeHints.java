package io.rpcrdma.spring.boot.autoconfigure.aot;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * What rpcrdma itself needs whatever the application: {@link java.util.ServiceLoader} finds the
 * RDMA providers through {@code META-INF/services/io.rpcrdma.verbs.RdmaProviderFactory} and
 * instantiates each with its public no-argument constructor, and finds codec providers the
 * same way.
 */
final class RpcRdmaRuntimeHints implements RuntimeHintsRegistrar {

	static final String PROVIDER_FACTORIES = "META-INF/services/io.rpcrdma.verbs.RdmaProviderFactory";

	/** Codecs an application contributes the same way. */
	static final String CODEC_PROVIDERS = "META-INF/services/io.rpcrdma.service.codec.XdrCodecProvider";

	private static final String[] FACTORIES = { "io.rpcrdma.verbs.loopback.LoopbackProviderFactory",
			"io.rpcrdma.verbs.siw.SiwProviderFactory", "io.rpcrdma.verbs.disni.DisniProviderFactory" };

	@Override
	public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
		hints.resources().registerPattern(PROVIDER_FACTORIES);
		hints.resources().registerPattern(CODEC_PROVIDERS);
		for (String factory : FACTORIES) {
			hints.reflection().registerType(TypeReference.of(factory), MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
		}
	}

}
