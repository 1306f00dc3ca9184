package io.rpcrdma.spring.boot.autoconfigure.rpcbind;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import io.rpcrdma.discovery.rpcbind.ProgramVersion;
import io.rpcrdma.discovery.rpcbind.RpcbindException;
import io.rpcrdma.discovery.rpcbind.RpcbindRegistration;
import io.rpcrdma.discovery.rpcbind.RpcbindRegistrationException;
import io.rpcrdma.discovery.rpcbind.RpcbindUnavailableException;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ExportedService;
import io.rpcrdma.spring.boot.autoconfigure.server.RpcServerLifecycleListener;

/**
 * Registers the exported services' program versions with rpcbind once the server listens, and
 * unregisters them before it stops accepting (RFC 5666 §10: the server registers its port
 * under the netids of RFC 5666 §12).
 */
public final class RpcbindServerRegistration implements RpcServerLifecycleListener {

	private static final Logger logger = System.getLogger(RpcbindServerRegistration.class.getName());

	private final InetSocketAddress rpcbind;

	private final String configured;

	private final Duration timeout;

	private volatile RpcbindRegistration registration;

	/**
	 * @param rpcbind where rpcbind listens
	 * @param configured the address as configured, for messages
	 * @param timeout bounds the connect and each call
	 */
	public RpcbindServerRegistration(InetSocketAddress rpcbind, String configured, Duration timeout) {
		this.rpcbind = rpcbind;
		this.configured = configured;
		this.timeout = timeout;
	}

	@Override
	public void started(RpcServer server, List<ExportedService> services) {
		InetSocketAddress bound = server.localAddress();
		if (bound.isUnresolved()) {
			throw new RpcbindRegistrationFailedException("The RPC server listens on " + bound
					+ ", an in-JVM address of the loopback provider that rpcbind cannot carry; use an IP provider"
					+ " (siw, disni) or disable rpcrdma.server.rpcbind.enabled", null);
		}
		List<ProgramVersion> programs = services.stream()
			.map((service) -> new ProgramVersion(service.descriptor().program(), service.descriptor().version()))
			.distinct()
			.toList();
		try {
			this.registration = RpcbindRegistration.register(this.rpcbind, this.timeout, bound, programs,
					RpcbindRegistration.DEFAULT_OWNER);
		}
		catch (RpcbindUnavailableException ex) {
			throw new RpcbindRegistrationFailedException("rpcbind is not running at " + this.configured
					+ " (rpcrdma.server.rpcbind.address): start it there ('apt-get install rpcbind') or disable"
					+ " rpcrdma.server.rpcbind.enabled. " + ex.getMessage(), ex);
		}
		catch (RpcbindRegistrationException ex) {
			throw new RpcbindRegistrationFailedException(ex.getMessage()
					+ "; or disable rpcrdma.server.rpcbind.enabled", ex);
		}
		catch (RpcbindException ex) {
			throw new RpcbindRegistrationFailedException("Registering with rpcbind at " + this.configured
					+ " failed: " + ex.getMessage() + "; fix rpcrdma.server.rpcbind.address or disable"
					+ " rpcrdma.server.rpcbind.enabled", ex);
		}
	}

	@Override
	public void stopping(RpcServer server) {
		RpcbindRegistration current = this.registration;
		this.registration = null;
		if (current == null) {
			return;
		}
		try {
			current.close();
		}
		catch (RpcbindException ex) {
			logger.log(Level.WARNING, () -> "Could not unregister from rpcbind at " + this.configured + " ("
					+ ex.getMessage() + "); its mappings " + current.mappings()
					+ " stay until it restarts or 'rpcinfo -d <program> <version>' removes them");
		}
	}

	/** @return the registration in force, or {@code null} when the server is not registered */
	public RpcbindRegistration registration() {
		return this.registration;
	}

}
