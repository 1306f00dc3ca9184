package io.rpcrdma.oncrpc;

/**
 * How every message writes an ONC RPC program number: unsigned hexadecimal with {@code 0x}
 * ({@code 0x186a3} for NFS, {@code 0x2a3f0001} for a user-defined program), as program
 * numbers are assigned and listed (RFC 5531 §7.3 gives the ranges in hex). Versions and
 * procedures stay decimal.
 */
public final class ProgramNumberText {

	private ProgramNumberText() {
	}

	/**
	 * @param program the program number, unsigned
	 * @return it as {@code 0x} and lower-case hex digits
	 */
	public static String hex(int program) {
		return "0x" + Integer.toHexString(program);
	}

}
