package io.rpcrdma.service.codec;

import static io.rpcrdma.xdr.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.lang.reflect.Type;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.rpcrdma.xdr.Hex;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Applications plug codecs for their own types in through {@link XdrCodecProvider}s,
 * programmatically or by ServiceLoader; providers are asked before the built-in rules and
 * their codecs compose with the built-in ones.
 */
class CodecProviderTest {

	record Wallet(String owner, Money balance, List<Money> history, Optional<Money> limit) {
	}

	@Test
	void withoutAProviderTheTypeIsUnsupported() {
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> CodecRegistry.standard().codecFor(Money.class))
			.withMessageContaining("no XDR codec for type " + Money.class.getName());
	}

	@Test
	void programmaticProviderSuppliesNestedCodecs() {
		CodecRegistry registry = CodecRegistry.builder().provider(new MoneyCodecProvider()).build();
		XdrCodec<Wallet> codec = registry.codecFor(Wallet.class);
		Wallet wallet = new Wallet("a", new Money(5), List.of(new Money(-1)), Optional.empty());
		byte[] wire = Coding.encode(codec, wallet);
		assertThat(Hex.units(wire)).isEqualTo(Hex.units(hex("""
				00000001 61000000          // owner
				00000000 00000005          // balance, the provider's hyper
				00000001 ffffffff ffffffff // history: one element
				00000000                   // limit absent
				""")));
		assertThat(Coding.decode(codec, wire)).isEqualTo(wallet);
	}

	@Test
	void serviceLoaderDiscoversProviders() {
		CodecRegistry registry = CodecRegistry.builder().discoverProviders(getClass().getClassLoader()).build();
		assertThat(registry.providers()).hasAtLeastOneElementOfType(MoneyCodecProvider.class);
		assertThat(registry.codecFor(Money.class)).isSameAs(MoneyCodecProvider.CODEC);
	}

	@Test
	void providersComeBeforeTheBuiltInRules() {
		XdrCodec<String> upper = new XdrCodec<>() {
			@Override
			public void encode(String value, XdrEncoder out) {
				out.writeString(value.toUpperCase(java.util.Locale.ROOT));
			}

			@Override
			public String decode(XdrDecoder in) {
				return in.readString(100);
			}

			@Override
			public int encodedSize(String value) {
				return 4 + (int) io.rpcrdma.xdr.Xdr.pad(value.length());
			}
		};
		CodecRegistry registry = CodecRegistry.builder().provider((Type type, CodecRegistry r) -> (type == String.class) ? upper : null).build();
		assertThat(registry.codecFor(String.class)).isSameAs(upper);
		assertThat(Coding.decode(registry.codecFor(String.class), Coding.encode(registry.codecFor(String.class), "abc"))).isEqualTo("ABC");
		assertThat(upper.shape()).isInstanceOf(XdrShape.Undescribed.class);
	}

}
