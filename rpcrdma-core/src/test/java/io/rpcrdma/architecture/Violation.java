package io.rpcrdma.architecture;

/**
 * One breach of a layering rule: a class naming a type it should not.
 *
 * @param rule the rule's name
 * @param from the fully qualified name of the class that names it
 * @param to the type (or package) named
 */
record Violation(String rule, String from, String to) {

	/** Parses the allow-list form {@code rule: from -> to}. */
	static Violation parse(String entry) {
		int colon = entry.indexOf(':');
		int arrow = entry.indexOf("->");
		if (colon < 0 || arrow < colon) {
			throw new IllegalArgumentException("Allow-list entry is not 'rule: from -> to': " + entry);
		}
		return new Violation(entry.substring(0, colon).trim(), entry.substring(colon + 1, arrow).trim(),
				entry.substring(arrow + 2).trim());
	}

	@Override
	public String toString() {
		return this.rule + ": " + this.from + " -> " + this.to;
	}

}
