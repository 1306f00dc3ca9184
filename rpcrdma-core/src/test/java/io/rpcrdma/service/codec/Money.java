package io.rpcrdma.service.codec;

/** A type the built-in rules do not support; {@link MoneyCodecProvider} supplies its codec. */
final class Money {

	final long cents;

	Money(long cents) {
		this.cents = cents;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof Money that && this.cents == that.cents;
	}

	@Override
	public int hashCode() {
		return Long.hashCode(this.cents);
	}

}
