package io.rpcrdma.service.codec;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** Types the codec tests encode. */
final class Model {

	private Model() {
	}

	enum Color {
		RED, GREEN, BLUE
	}

	enum Status {
		@XdrValue(0)
		OK,
		@XdrValue(2)
		NOENT,
		@XdrValue(13)
		ACCES,
		@XdrValue(-1)
		UNKNOWN
	}

	record Point(int x, long y, boolean visible) {
	}

	record Primitives(boolean z, byte b, short s, char c, int i, long j, float f, double d) {
	}

	record Boxes(Boolean z, Byte b, Short s, Character c, Integer i, Long j, Float f, Double d) {
	}

	record Address(String street, int number, Optional<String> city) {
	}

	record Person(String name, int age, Integer luckyNumber, List<Address> addresses, Map<String, Integer> scores, Set<Color> colors,
			Optional<Address> home, Status status, @XdrOptional String nickname, byte[] photo, long[] timestamps, String[] tags) {
	}

	/** A linked list: the recursion goes through optional-data, as RFC 4506 §4.19 describes. */
	record Node(int value, @XdrOptional Node next) {
	}

	/** A tree: the recursion goes through a list. */
	record Tree(String label, List<Tree> children) {
	}

	record Box<T>(T content, List<T> more) {
	}

	record Positive(int value) {
		Positive {
			if (value <= 0) {
				throw new IllegalArgumentException("value must be positive: " + value);
			}
		}
	}

	/** A plain class with an explicit field order, decoded through its all-arguments constructor. */
	@XdrFields({ "id", "label" })
	static final class Tag {

		private final int id;

		private final String label;

		Tag(int id, String label) {
			this.id = id;
			this.label = label;
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof Tag that && this.id == that.id && this.label.equals(that.label);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.id, this.label);
		}

		@Override
		public String toString() {
			return "Tag[" + this.id + ", " + this.label + "]";
		}

	}

	/** A plain class with @XdrField orders, decoded through its no-argument constructor and fields. */
	static final class Measurement {

		@XdrField(order = 2)
		double value;

		@XdrField(order = 1)
		String unit;

		@XdrField(order = 3)
		@XdrOptional
		Measurement previous;

		String notEncoded = "local";

		Measurement() {
		}

		/** Not in @XdrField order, so decoding uses the no-argument constructor and the fields. */
		Measurement(double value, String unit, Measurement previous) {
			this.unit = unit;
			this.value = value;
			this.previous = previous;
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof Measurement that && Double.compare(this.value, that.value) == 0 && this.unit.equals(that.unit)
					&& Objects.equals(this.previous, that.previous);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.value, this.unit);
		}

		@Override
		public String toString() {
			return "Measurement[" + this.unit + ", " + this.value + ", " + this.previous + "]";
		}

	}

}
