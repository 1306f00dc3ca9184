package io.rpcrdma.discovery.rpcbind;

import java.util.List;
import java.util.stream.Collectors;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * None of several hosts' rpcbinds gave an RPC-over-RDMA address for a program version; the
 * message carries each host's reason, and each is also a suppressed exception.
 */
public final class RpcbindLookupException extends RpcbindException {

	private static final long serialVersionUID = 1L;

	RpcbindLookupException(int program, int version, List<RpcbindException> failures) {
		super("No rpcbind of the " + failures.size() + " hosts asked maps program " + ProgramNumberText.hex(program)
				+ " version " + Integer.toUnsignedString(version) + " for RPC-over-RDMA: "
				+ failures.stream().map(Throwable::getMessage).collect(Collectors.joining(" | ")), null);
		failures.forEach(this::addSuppressed);
	}

}
