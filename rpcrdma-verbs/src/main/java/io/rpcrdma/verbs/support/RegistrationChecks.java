package io.rpcrdma.verbs.support;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

import io.rpcrdma.verbs.AccessFlag;

/**
 * The checks every provider applies to {@code ProtectionDomain.registerMemory}, so that all
 * providers refuse the same registrations with the same messages, as {@code ibv_reg_mr}
 * would.
 */
public final class RegistrationChecks {

	private RegistrationChecks() {
	}

	/**
	 * Checks a registration and returns its access rights.
	 * @param directBuffer the memory; position and limit delimit the region
	 * @param access the requested rights
	 * @return a mutable copy of the rights
	 * @throws NullPointerException if an argument is {@code null}
	 * @throws IllegalArgumentException if the buffer is not direct, is empty, or the rights
	 * are inconsistent (REMOTE_WRITE without LOCAL_WRITE, write access to a read-only buffer)
	 */
	public static EnumSet<AccessFlag> check(ByteBuffer directBuffer, Set<AccessFlag> access) {
		if (directBuffer == null) {
			throw new NullPointerException("registerMemory needs a direct ByteBuffer, got null");
		}
		if (access == null) {
			throw new NullPointerException("registerMemory needs a set of AccessFlag (may be empty), got null");
		}
		if (!directBuffer.isDirect()) {
			throw new IllegalArgumentException("registerMemory needs a direct ByteBuffer, but got a heap buffer ("
					+ directBuffer + "); the adapter cannot address memory the garbage collector moves. "
					+ "Allocate with ByteBuffer.allocateDirect or lease from a registered memory pool");
		}
		if (!directBuffer.hasRemaining()) {
			throw new IllegalArgumentException("registerMemory needs at least one byte between position and limit, but "
					+ directBuffer + " has none; set position and limit around the bytes to register");
		}
		EnumSet<AccessFlag> rights = access.isEmpty() ? EnumSet.noneOf(AccessFlag.class) : EnumSet.copyOf(access);
		if (rights.contains(AccessFlag.REMOTE_WRITE) && !rights.contains(AccessFlag.LOCAL_WRITE)) {
			throw new IllegalArgumentException("REMOTE_WRITE access requires LOCAL_WRITE as well (as in verbs "
					+ "ibv_reg_mr); add AccessFlag.LOCAL_WRITE to " + rights);
		}
		if (directBuffer.isReadOnly()
				&& (rights.contains(AccessFlag.LOCAL_WRITE) || rights.contains(AccessFlag.REMOTE_WRITE))) {
			throw new IllegalArgumentException("A read-only buffer cannot be registered with " + rights
					+ "; register it with REMOTE_READ only, or pass a writable buffer");
		}
		return rights;
	}

}
