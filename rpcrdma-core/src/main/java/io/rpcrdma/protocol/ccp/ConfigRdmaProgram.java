package io.rpcrdma.protocol.ccp;

/**
 * The Connection Configuration Protocol's RPC program (RFC 5666 §6.2 {@code CONFIG_RDMA_PROG}):
 * an in-band, OPTIONAL exchange by which a client tells the server its inline sizes and RDMA
 * Read depth and learns the server's.
 */
public final class ConfigRdmaProgram {

	/** RFC 5666 §6.2: {@code program CONFIG_RDMA_PROG ... = 100417}. */
	public static final int PROGRAM = 100417;

	/** RFC 5666 §6.2: {@code version VERS1 ... = 1}. */
	public static final int VERSION = 1;

	/** RFC 5666 §6.2: {@code config_rdma_reply CONF_RDMA(config_rdma_req) = 1}. */
	public static final int CONF_RDMA = 1;

	/**
	 * RFC 5666 §6.1: before the exchange completes, a connection is only assumed to carry one
	 * message at a time of at least 1 KB; a CCP call must therefore fit 1024 bytes.
	 */
	public static final int INITIAL_INLINE_SIZE = 1024;

	private ConfigRdmaProgram() {
	}

}
