package io.rpcrdma.server;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;

import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.xdr.XdrDecoder;

/**
 * How {@link RpcDispatcher} admits a call whose credential is RPCSEC_GSS (RFC 2203 §5): the
 * flavor answers context creation and destruction itself (§5.2, §5.4), discards a replayed or
 * stale sequence number without a reply (§5.3.3.1), refuses what does not verify, and admits
 * the rest under its principal, with the arguments taken out of their protection for
 * integrity or privacy (§5.3.2.2, §5.3.2.3). Other flavors are judged by the
 * {@link io.rpcrdma.server.security.SecurityPolicy} alone.
 */
final class RpcSecGssAdmission {

	private static final System.Logger logger = System.getLogger(RpcDispatcher.class.getName());

	private final RpcDispatcher dispatcher;

	RpcSecGssAdmission(RpcDispatcher dispatcher) {
		this.dispatcher = dispatcher;
	}

	/**
	 * Admits an RPCSEC_GSS call, or finishes it.
	 * @param rpcsecGss the server's RPCSEC_GSS
	 * @param call the call's header
	 * @param message the encoded call
	 * @param start where the call starts in {@code message}
	 * @param decoder reads the call, positioned at its arguments
	 * @param exchange the call's exchange, holding its in-flight ticket
	 * @param buffers where replies are encoded
	 * @param sink where replies go
	 * @param clientKey who sent it
	 * @return the verdict the call goes on with (AUTH_OK, or the AUTH_ERROR status to answer);
	 * {@code null} when the call is finished here: its outcome is then the exchange's, and
	 * the exchange has left the in-flight count or will once an asynchronous step is done
	 */
	AuthStat admit(RpcSecGssServer rpcsecGss, RpcCall call, ByteBuffer message, int start, XdrDecoder decoder,
			DispatchExchange exchange, ReplyBufferSupplier buffers, ReplySink sink, Object clientKey) {
		RpcSecGssServer.Outcome verdict = rpcsecGss.admit(call, message, start, decoder,
				new RpcSecGssServer.Origin(clientKey, sink.connection(), sink.connectionClosed()));
		if (verdict instanceof RpcSecGssServer.ContextStep step) {
			contextStep(step, exchange, buffers, sink, clientKey);
			return null;
		}
		if (verdict instanceof RpcSecGssServer.Control control) {
			// RFC 2203 §5.2, §5.4: context creation and destruction are RPCSEC_GSS's to answer.
			boolean sent = RpcDispatcher.encodeAndSend(null, control.reply(), buffers, sink, clientKey);
			exchange.outcome.complete(sent ? DispatchOutcome.REPLIED : DispatchOutcome.FAILED);
			exchange.exit();
			return null;
		}
		if (verdict instanceof RpcSecGssServer.Discarded discarded) {
			// RFC 2203 §5.3.3.1: a replayed or stale sequence number gets no reply at all.
			this.dispatcher.drop(DispatchOutcome.DROPPED_DUPLICATE, "Discarding an RPCSEC_GSS call xid "
					+ RpcDispatcher.xid(call.xid()) + " from " + clientKey + ": " + discarded.reason(), null);
			exchange.outcome.complete(DispatchOutcome.DROPPED_DUPLICATE);
			exchange.exit();
			return null;
		}
		if (verdict instanceof RpcSecGssServer.Refused refused) {
			logger.log(Level.DEBUG, () -> "RPCSEC_GSS refused xid " + RpcDispatcher.xid(call.xid()) + " from "
					+ clientKey + ": " + refused.reason());
			return refused.status();
		}
		RpcSecGssServer.Admitted admission = (RpcSecGssServer.Admitted) verdict;
		exchange.serverCall.authenticated(admission.principal(), admission.replyVerifier());
		AuthStat admitted = this.dispatcher.security.admit(admission.principal().flavor(), call.program(),
				call.version(), call.procedure());
		if (admitted == AuthStat.AUTH_OK && admission.protection() != null
				&& !exchange.unwrapArguments(admission.protection())) {
			this.dispatcher.garbageArgs.increment();
			exchange.outcome.complete(RpcDispatcher.sendHeader(exchange.verified(RpcReply.garbageArgs(call.xid())),
					buffers, sink, clientKey));
			exchange.exit();
			return null;
		}
		return admitted;
	}

	/**
	 * Takes an RPCSEC_GSS context-creation step on the executor, not on the thread that
	 * received the call (ARCHITECTURE.md, "Threading": accepting a Kerberos AP-REQ decrypts it
	 * and may write the JDK's replay cache), and answers it: the reply the step made, or
	 * AUTH_ERROR; SYSTEM_ERR when the executor is saturated.
	 */
	private void contextStep(RpcSecGssServer.ContextStep step, DispatchExchange exchange,
			ReplyBufferSupplier buffers, ReplySink sink, Object clientKey) {
		int xid = exchange.call.xid();
		Runnable work = () -> {
			DispatchOutcome result;
			try {
				RpcSecGssServer.Outcome answer = step.step().get();
				if (answer instanceof RpcSecGssServer.Control control) {
					result = RpcDispatcher.encodeAndSend(null, control.reply(), buffers, sink, clientKey) ? DispatchOutcome.REPLIED
							: DispatchOutcome.FAILED;
				}
				else {
					RpcSecGssServer.Refused refused = (RpcSecGssServer.Refused) answer;
					this.dispatcher.authErrors.increment();
					logger.log(Level.DEBUG, () -> "RPCSEC_GSS refused xid " + RpcDispatcher.xid(xid) + " from " + clientKey + ": "
							+ refused.reason());
					result = RpcDispatcher.sendHeader(RpcReply.authError(xid, refused.status()), buffers, sink, clientKey);
				}
			}
			catch (RuntimeException ex) {
				this.dispatcher.systemErrors.increment();
				logger.log(Level.WARNING, "RPCSEC_GSS context creation for xid " + RpcDispatcher.xid(xid) + " from " + clientKey
						+ " failed; answering SYSTEM_ERR", ex);
				result = RpcDispatcher.sendHeader(RpcReply.systemErr(xid), buffers, sink, clientKey);
			}
			exchange.outcome.complete(result);
			exchange.exit();
		};
		boolean accepted;
		try {
			accepted = this.dispatcher.executor.tryExecute(work);
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "Executor " + this.dispatcher.executor.description() + " threw instead of refusing", ex);
			accepted = false;
		}
		if (!accepted) {
			// The context's slot, taken when the INIT came, is not held for a step never taken.
			step.abandon().run();
			this.dispatcher.overloaded.increment();
			DispatchOutcome sent = RpcDispatcher.sendHeader(RpcReply.systemErr(xid), buffers, sink, clientKey);
			exchange.outcome.complete((sent == DispatchOutcome.REPLIED) ? DispatchOutcome.REJECTED_OVERLOADED : sent);
			exchange.exit();
		}
	}

}
