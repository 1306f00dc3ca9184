package io.rpcrdma.service.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.File;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Types that cannot have a codec are rejected when the codec is built, with a message that
 * names the type (and member) and says what to do.
 */
class CodecDefinitionTest {

	private final CodecRegistry registry = CodecRegistry.standard();

	record WithFile(String name, File file) {
	}

	record Infinite(int value, Infinite next) {
	}

	record Left(Right right) {
	}

	record Right(Left left) {
	}

	record Holder(Object anything) {
	}

	@SuppressWarnings("rawtypes")
	record Raw(List items) {
	}

	record Wild(List<? super Integer> items) {
	}

	record Covariant(List<? extends Model.Point> items, List<? extends Integer> numbers) {
	}

	record Generic<T>(T value) {
	}

	record Nothing() {
	}

	enum NoConstants {
	}

	enum Half {
		@XdrValue(1)
		ONE, TWO
	}

	enum Same {
		@XdrValue(1)
		A, @XdrValue(1)
		B
	}

	@XdrFields({ "a", "missing" })
	static final class MissingField {

		int a;

	}

	static final class DuplicateOrder {

		@XdrField(order = 1)
		int a;

		@XdrField(order = 1)
		int b;

	}

	@XdrFields({ "a" })
	static final class FinalWithoutConstructor {

		final int a;

		FinalWithoutConstructor() {
			this.a = 0;
		}

	}

	@XdrFields({ "a" })
	static final class NoConstructor {

		int a;

		NoConstructor(String unrelated) {
		}

	}

	@Test
	void unsupportedTypeNamesTheMemberAndHowToPlugACodec() {
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(WithFile.class))
			.withMessageContaining(WithFile.class.getName() + " component file: no XDR codec for type java.io.File")
			.withMessageContaining("supported are primitives and their boxes, String, byte[], ByteBuffer, enums, records")
			.withMessageContaining("register an XdrCodecProvider")
			.withMessageContaining("META-INF/services/io.rpcrdma.service.codec.XdrCodecProvider");
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Holder.class))
			.withMessageContaining("no XDR codec for type java.lang.Object");
	}

	@Test
	void selfContainmentByValueIsRejected() {
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Infinite.class))
			.withMessageContaining(Infinite.class.getName() + " contains itself by value")
			.withMessageContaining("Optional<...> or @XdrOptional");
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Left.class))
			.withMessageContaining(Left.class.getName() + " contains itself by value");
	}

	@Test
	void failedBuildLeavesNothingHalfBuiltBehind() {
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Left.class));
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Right.class))
			.withMessageContaining("contains itself by value");
	}

	@Test
	void rawAndWildcardTypesSayWhatToDeclare() {
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Raw.class))
			.withMessageContaining("raw type java.util.List has no element type to encode; declare it, e.g. List<String>");
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Map.class))
			.withMessageContaining("Map<String, Integer>");
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Wild.class))
			.withMessageContaining("wildcard ? super java.lang.Integer does not say what to decode");
		XdrCodec<Covariant> covariant = this.registry.codecFor(Covariant.class);
		Covariant value = new Covariant(List.of(new Model.Point(1, 2, true)), List.of(3));
		assertThat(Coding.decode(covariant, Coding.encode(covariant, value))).as("? extends X is coded as X").isEqualTo(value);
	}

	@Test
	void unresolvedTypeVariablesAreRejected() {
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Generic.class))
			.withMessageContaining("raw use of generic " + Generic.class.getName() + ": its type variable T cannot be resolved");
		assertThatExceptionOfType(CodecDefinitionException.class)
			.isThrownBy(() -> this.registry.codecFor(Generic.class.getTypeParameters()[0]))
			.withMessageContaining("type variable T (declared by " + Generic.class.getName() + ") cannot be resolved");
	}

	@Test
	void enumValuesMustBeAllOrNoneAndDistinct() {
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Half.class))
			.withMessageContaining("gives @XdrValue to 1 of its 2 constants; give every constant a value or none");
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Same.class))
			.withMessageContaining("gives @XdrValue(1) to both A and B");
	}

	@Test
	void classFieldDeclarationsAreChecked() {
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(MissingField.class))
			.withMessageContaining("names field 'missing', which neither it nor a superclass declares");
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(DuplicateOrder.class))
			.withMessageContaining("both have @XdrField(order = 1); orders must be distinct");
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(FinalWithoutConstructor.class))
			.withMessageContaining("field " + FinalWithoutConstructor.class.getName() + ".a is final and no constructor takes the XDR fields in order (int)");
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(NoConstructor.class))
			.withMessageContaining("has neither a constructor taking its XDR fields in order (int) nor a no-argument constructor");
	}

	@Test
	void emptyStructsAndEnumsAreNotXdr() {
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(Nothing.class))
			.withMessageContaining(Nothing.class.getName() + " has no members, but an XDR struct needs at least one (RFC 4506 §6.3)");
		assertThatExceptionOfType(CodecDefinitionException.class).isThrownBy(() -> this.registry.codecFor(NoConstants.class))
			.withMessageContaining("enum " + NoConstants.class.getName() + " has no constants");
	}

	@Test
	void codecsAreBuiltOncePerType() {
		assertThat(this.registry.codecFor(Model.Person.class)).isSameAs(this.registry.codecFor(Model.Person.class));
		assertThat(this.registry.codecFor(new TypeCapture<List<String>>() { }.type()))
			.isSameAs(this.registry.codecFor(new TypeCapture<List<String>>() { }.type()));
	}

}
