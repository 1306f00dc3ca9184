package io.rpcrdma.service;

import java.nio.charset.StandardCharsets;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * Derives a program number from a service interface's name, for interfaces whose
 * {@link RpcProgram} gives none.
 * <p>
 * The number is {@code 0x20000000 + (FNV-1a-32(UTF-8 bytes of the fully qualified name) mod 2^29)}:
 * the 32-bit FNV-1a hash (offset basis {@code 0x811C9DC5}, prime {@code 0x01000193}; see
 * draft-eastlake-fnv) of the name's UTF-8 bytes, whose low 29 bits select a number in the
 * range RFC 5531 §7.3 assigns to user-defined programs, {@code 0x20000000–0x3FFFFFFF}. It
 * depends on nothing but the name, so every JVM and every run computes the same number;
 * renaming or moving the interface changes it, and two names may collide (the
 * {@link ServiceExporter} refuses to serve two interfaces with one program and version). Services that
 * evolve give their number explicitly.
 */
public final class ProgramNumbers {

	/** First program number of the user-defined range (RFC 5531 §7.3). */
	public static final int USER_DEFINED_FIRST = 0x2000_0000;

	/** Last program number of the user-defined range. */
	public static final int USER_DEFINED_LAST = 0x3FFF_FFFF;

	private static final int FNV_OFFSET_BASIS = 0x811C_9DC5;

	private static final int FNV_PRIME = 0x0100_0193;

	private ProgramNumbers() {
	}

	/**
	 * @param fullyQualifiedName the interface's {@link Class#getName()}
	 * @return the derived program number in {@code 0x20000000–0x3FFFFFFF}
	 */
	public static int derive(String fullyQualifiedName) {
		return USER_DEFINED_FIRST + (fnv1a32(fullyQualifiedName.getBytes(StandardCharsets.UTF_8)) & 0x1FFF_FFFF);
	}

	/**
	 * The 32-bit FNV-1a hash.
	 * @param data the bytes
	 * @return the hash
	 */
	public static int fnv1a32(byte[] data) {
		int hash = FNV_OFFSET_BASIS;
		for (byte b : data) {
			hash ^= b & 0xFF;
			hash *= FNV_PRIME;
		}
		return hash;
	}

	/**
	 * @param number a program, version or procedure number
	 * @return it as unsigned hexadecimal, e.g. {@code 0x2a3f0001}
	 */
	public static String hex(int number) {
		return ProgramNumberText.hex(number);
	}

}
