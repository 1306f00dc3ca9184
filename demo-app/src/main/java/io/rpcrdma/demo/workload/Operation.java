package io.rpcrdma.demo.workload;

import java.util.Locale;

/**
 * The calls a workload makes.
 */
public enum Operation {

	/** Store an object. */
	PUT,

	/** Read a whole (large) object back and check its CRC-32C. */
	GET,

	/** Read a small or medium object back in one ranged read and check its CRC-32C. */
	READ,

	/** Read an object's metadata. */
	STAT,

	/** List objects by prefix. */
	LIST,

	/** Delete an object. */
	DELETE;

	/** @return the name shown in the results */
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

}
