package io.rpcrdma.verbs.disni;

import java.nio.ByteBuffer;
import java.util.Set;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.ProtectionDomain;

/**
 * A registered region as an adapter would describe it: distinct lkey and rkey, so a test
 * notices when one is used for the other.
 */
record TestRegion(long address, int rkey, int lkey, int length) implements MemoryRegion {

	@Override
	public int stag() {
		return this.rkey;
	}

	@Override
	public Set<AccessFlag> access() {
		return Set.of(AccessFlag.LOCAL_WRITE, AccessFlag.REMOTE_READ, AccessFlag.REMOTE_WRITE);
	}

	@Override
	public ByteBuffer buffer() {
		throw new UnsupportedOperationException();
	}

	@Override
	public ProtectionDomain protectionDomain() {
		throw new UnsupportedOperationException();
	}

	@Override
	public boolean isValid() {
		return true;
	}

	@Override
	public boolean isRegistered() {
		return true;
	}

	@Override
	public void invalidate() {
		throw new UnsupportedOperationException();
	}

	@Override
	public int reregister() {
		throw new UnsupportedOperationException();
	}

	@Override
	public void deregister() {
	}

}
