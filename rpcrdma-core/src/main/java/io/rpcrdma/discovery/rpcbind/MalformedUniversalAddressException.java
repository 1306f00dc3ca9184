package io.rpcrdma.discovery.rpcbind;

/**
 * A universal address is not in the RFC 5665 §5.2.3 form for IP netids
 * ({@code h1.h2.h3.h4.p1.p2} for IPv4, an RFC 4291 §2.2 IPv6 address then {@code .p1.p2}).
 */
public final class MalformedUniversalAddressException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	MalformedUniversalAddressException(String text, String why) {
		super("Universal address '" + UniversalAddress.printable(text) + "' is malformed: " + why
				+ " (RFC 5665 §5.2.3 expects h1.h2.h3.h4.p1.p2 for IPv4 or an IPv6 address followed by .p1.p2)");
	}

}
