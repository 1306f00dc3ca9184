package io.rpcrdma.discovery.rpcbind;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * A program version a server exports, which it registers with rpcbind. The numbers are
 * {@code unsigned int}s held as their 32 bits (RFC 5531 §9).
 *
 * @param program the program number
 * @param version the version
 */
public record ProgramVersion(int program, int version) {

	@Override
	public String toString() {
		return "program " + ProgramNumberText.hex(this.program) + " version " + Integer.toUnsignedString(this.version);
	}

}
