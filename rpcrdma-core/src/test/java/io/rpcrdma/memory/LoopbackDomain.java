package io.rpcrdma.memory;

import java.util.concurrent.Callable;

import io.rpcrdma.verbs.AccessFlag;
import io.rpcrdma.verbs.ProtectionDomain;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.RemoteAccessException;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.soft.SoftwareProtectionDomain;

/**
 * A real loopback provider and protection domain for memory tests, plus the remote access
 * check a peer's RDMA Read or Write would go through.
 */
final class LoopbackDomain implements AutoCloseable {

	final RdmaProvider provider = RdmaProviders.open("loopback");

	final ProtectionDomain pd = this.provider.allocateProtectionDomain();

	/**
	 * Runs the loopback device's check for a peer accessing {@code length} bytes at
	 * {@code target} with the given right, as an RDMA Read or Write from a queue pair of
	 * this domain would.
	 * @throws RemoteAccessException if the access would be refused
	 */
	void checkPeerAccess(RemoteAddress target, int length, AccessFlag right) {
		SoftwareProtectionDomain soft = (SoftwareProtectionDomain) this.pd;
		soft.table().checkRemoteAccess(target.stag(), target.address(), length, right, this.pd, null);
	}

	static <T> T unchecked(Callable<T> action) {
		try {
			return action.call();
		}
		catch (RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		this.pd.close();
		this.provider.close();
	}

}
