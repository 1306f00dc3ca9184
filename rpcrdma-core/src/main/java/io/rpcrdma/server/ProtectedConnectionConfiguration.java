package io.rpcrdma.server;

import java.util.concurrent.CompletionStage;

import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.protocol.Rfc8797PrivateData;
import io.rpcrdma.protocol.ccp.ConfigRdmaCodec;
import io.rpcrdma.protocol.ccp.ConfigRdmaProgram;
import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;

/**
 * CONF_RDMA (RFC 5666 §6.2) served by the RPC layer of a server with a security policy. RFC
 * 5666 §11: "The Connection Configuration Protocol, when used, MUST be protected by an
 * appropriate RPC security flavor." Such a server's transport does not answer CCP itself, so
 * a CONF_RDMA call reaches the dispatcher, whose policy judges its credential as any call's;
 * this handler then refuses whatever is not RPCSEC_GSS (AUTH_TOOWEAK: AUTH_NONE and AUTH_SYS
 * prove nobody), and applies the rest to the connection the call came on, exactly as the
 * transport's own responder would. Under krb5i and krb5p the arguments and results travel
 * protected like any body.
 */
final class ProtectedConnectionConfiguration implements ProcedureHandler {

	/**
	 * Serves CONF_RDMA on a registry that does not serve program 100417 already.
	 * @param registry the server's procedures
	 */
	static void registerIn(ProgramRegistry registry) {
		if (registry.versions(ConfigRdmaProgram.PROGRAM).isEmpty()) {
			// Idempotent: sent again after a lost connection, it configures the new one.
			registry.register(ConfigRdmaProgram.PROGRAM, ConfigRdmaProgram.VERSION, ConfigRdmaProgram.CONF_RDMA,
					Idempotence.IDEMPOTENT, new ProtectedConnectionConfiguration());
		}
	}

	@Override
	public CompletionStage<Void> handle(ServerCall call, XdrDecoder arguments, XdrEncoder results) {
		if (!call.principal().flavor().authenticates()) {
			throw new CallRejectedException(AuthStat.AUTH_TOOWEAK, "CONF_RDMA under " + call.principal().flavor()
					+ ": a server with a security policy answers CCP only under RPCSEC_GSS (RFC 5666 §11)");
		}
		ConfigRdmaRequest request;
		try {
			request = ConfigRdmaCodec.decodeRequest(arguments);
		}
		catch (XdrException ex) {
			throw new GarbageArgumentsException("CONF_RDMA arguments cut short: " + ex.getMessage(), ex);
		}
		if (request.maxCallSendSize() < Rfc8797PrivateData.MIN_SIZE
				|| request.maxReplySendSize() < Rfc8797PrivateData.MIN_SIZE) {
			// RFC 8166 §3.3.2: every receiver supports 1024 bytes; less is a broken peer.
			throw new GarbageArgumentsException("CONF_RDMA sizes below 1024 bytes (RFC 8166 §3.3.2): "
					+ request.maxCallSendSize() + " and " + request.maxReplySendSize());
		}
		ReplySink origin = call.origin();
		ConfigRdmaReply reply = (origin != null) ? origin.configureInBand(request) : null;
		if (reply == null) {
			throw new GarbageArgumentsException("CONF_RDMA came over no RPC-over-RDMA connection to configure");
		}
		ConfigRdmaCodec.encode(reply, results);
		return DONE;
	}

	@Override
	public String toString() {
		return "CONF_RDMA under RPCSEC_GSS (RFC 5666 §11)";
	}

}
