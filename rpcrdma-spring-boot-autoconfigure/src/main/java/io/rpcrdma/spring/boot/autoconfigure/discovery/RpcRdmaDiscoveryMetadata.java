package io.rpcrdma.spring.boot.autoconfigure.discovery;

/**
 * The metadata entries the RPC server adds to the application's Spring Cloud registration,
 * and that {@code discovery:///} clients read. Dashes, not dots: Consul accepts only letters,
 * digits, '-' and '_' in a service's metadata keys, and every registry takes these.
 */
public final class RpcRdmaDiscoveryMetadata {

	/** The port the RPC server listens on (RDMA-CM port), which the instance's own port is not. */
	public static final String PORT = "rpcrdma-port";

	/** The RDMA provider the server runs on ({@code siw}, {@code disni}, {@code loopback}). */
	public static final String PROVIDER = "rpcrdma-provider";

	/** The RPC-over-RDMA versions the server speaks, comma-separated ({@code 1,2}). */
	public static final String VERSIONS = "rpcrdma-versions";

	/** The exported ONC RPC programs, {@code program:version} comma-separated, numbers in decimal. */
	public static final String PROGRAMS = "rpcrdma-programs";

	/**
	 * Where spring-cloud-kubernetes puts a service port named {@code rpcrdma}: its default
	 * ports prefix {@code port.} and the port's name.
	 */
	public static final String KUBERNETES_NAMED_PORT = "port.rpcrdma";

	private RpcRdmaDiscoveryMetadata() {
	}

}
