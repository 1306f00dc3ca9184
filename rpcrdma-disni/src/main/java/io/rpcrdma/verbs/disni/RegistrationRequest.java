package io.rpcrdma.verbs.disni;

import java.nio.ByteBuffer;
import java.util.Set;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.support.RegistrationChecks;

/**
 * A checked memory registration: the bytes to register (a slice from the buffer's
 * position to its limit) and the verbs access bits. The checks are the SPI's, made before
 * {@code ibv_reg_mr} so that a mistake gets a message that says what to change rather than
 * an errno.
 *
 * @param slice the bytes to register, position 0, capacity the region length
 * @param access the granted rights
 * @param accessBits the {@code ibv_access_flags}
 */
record RegistrationRequest(ByteBuffer slice, Set<AccessFlag> access, int accessBits) {

	/** {@code IBV_ACCESS_LOCAL_WRITE}. */
	static final int IBV_ACCESS_LOCAL_WRITE = 1;

	/** {@code IBV_ACCESS_REMOTE_WRITE}. */
	static final int IBV_ACCESS_REMOTE_WRITE = 1 << 1;

	/** {@code IBV_ACCESS_REMOTE_READ}. */
	static final int IBV_ACCESS_REMOTE_READ = 1 << 2;

	/**
	 * Checks a registration.
	 * @param directBuffer the buffer; position and limit delimit the region
	 * @param access the rights
	 * @return the checked request
	 * @throws IllegalArgumentException if the buffer is not direct, empty, or the rights
	 * are inconsistent
	 */
	static RegistrationRequest of(ByteBuffer directBuffer, Set<AccessFlag> access) {
		Set<AccessFlag> rights = RegistrationChecks.check(directBuffer, access);
		return new RegistrationRequest(directBuffer.slice(), Set.copyOf(rights), accessBits(rights));
	}

	/**
	 * The verbs access bits of SPI rights.
	 * @param rights the rights
	 * @return the {@code ibv_access_flags}
	 */
	static int accessBits(Set<AccessFlag> rights) {
		int bits = 0;
		if (rights.contains(AccessFlag.LOCAL_WRITE)) {
			bits |= IBV_ACCESS_LOCAL_WRITE;
		}
		if (rights.contains(AccessFlag.REMOTE_WRITE)) {
			bits |= IBV_ACCESS_REMOTE_WRITE;
		}
		if (rights.contains(AccessFlag.REMOTE_READ)) {
			bits |= IBV_ACCESS_REMOTE_READ;
		}
		return bits;
	}

}
