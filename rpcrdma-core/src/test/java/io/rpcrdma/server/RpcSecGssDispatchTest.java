package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.kerberos.MitKdcExtension;
import io.rpcrdma.oncrpc.AcceptStatus;
import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssProcedure;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.GssSession;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * RPCSEC_GSS context creation is taken off the thread that received the call (ARCHITECTURE.md,
 * "Threading"): the Kerberos step runs on the server's executor, and an executor that refuses
 * it gets the call SYSTEM_ERR without a context. Against a real MIT KDC.
 */
@Tag("conformance")
@ExtendWith(MitKdcExtension.class)
class RpcSecGssDispatchTest {

	private static final int PROGRAM = 100_098;

	private static final int XID = 0x0bad_cafe;

	@Test
	void theContextStepRunsOnTheExecutorNotOnTheReceivingThread(MitKdc kdc) throws Exception {
		RecordingExecutor executor = new RecordingExecutor(true);
		RpcSecGssServer rpcsecGss = rpcsecGss(kdc);
		RpcDispatcher dispatcher = dispatcher(executor, rpcsecGss);
		CapturingConnection connection = new CapturingConnection(8192);

		DispatchOutcome outcome = dispatcher.dispatch(initCall(kdc), "client-a", connection, connection)
			.get(10, TimeUnit.SECONDS);

		assertThat(outcome).isEqualTo(DispatchOutcome.REPLIED);
		assertThat(executor.ran).as("tasks the executor ran").hasSize(1);
		XdrDecoder reply = new XdrDecoder(ByteBuffer.wrap(connection.nextReply()));
		assertThat(RpcMessageCodec.decodeReply(reply).isSuccess()).isTrue();
		assertThat(reply.readOpaqueBytes(400)).as("the context handle").isNotEmpty();
		assertThat(reply.readInt()).as("GSS_S_COMPLETE").isZero();
		assertThat(rpcsecGss.contexts()).isEqualTo(1);
		// The outcome is reported just before the call leaves the in-flight count (so that a
		// quiescent shutdown finds every outcome reported); a drain waits for that last step.
		assertThat(dispatcher.inFlight().shutdown(Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS).quiescent())
			.as("the context step left the in-flight count").isTrue();
	}

	@Test
	void aSaturatedExecutorGetsTheCallSystemErrAndNoContext(MitKdc kdc) throws Exception {
		RpcSecGssServer rpcsecGss = rpcsecGss(kdc);
		RpcDispatcher dispatcher = dispatcher(new RecordingExecutor(false), rpcsecGss);
		CapturingConnection connection = new CapturingConnection(8192);

		DispatchOutcome outcome = dispatcher.dispatch(initCall(kdc), "client-a", connection, connection)
			.get(10, TimeUnit.SECONDS);

		assertThat(outcome).isEqualTo(DispatchOutcome.REJECTED_OVERLOADED);
		RpcReply reply = RpcMessageCodec.decodeReply(new XdrDecoder(ByteBuffer.wrap(connection.nextReply())));
		assertThat(reply.body()).isInstanceOfSatisfying(AcceptedReply.class,
				(accepted) -> assertThat(accepted.status()).isInstanceOf(AcceptStatus.SystemErr.class));
		assertThat(rpcsecGss.contexts()).isZero();
		assertThat(dispatcher.stats().overloaded()).isEqualTo(1);
		assertThat(dispatcher.inFlight().inFlight()).isZero();
	}

	private static RpcSecGssServer rpcsecGss(MitKdc kdc) throws Exception {
		return new RpcSecGssServer(KerberosCredentials.acceptorFromKeytab(MitKdc.qualified("rpcrdma/localhost"),
				kdc.principalWithKeytab("rpcrdma/localhost")));
	}

	private static RpcDispatcher dispatcher(ServerExecutor executor, RpcSecGssServer rpcsecGss) {
		ProgramRegistry registry = new ProgramRegistry().registerVersion(PROGRAM, 1);
		return new RpcDispatcher(registry, executor, null, new InFlightTracker(),
				SecurityPolicy.builder().rpcsecGss(rpcsecGss).build());
	}

	/** RPCSEC_GSS_INIT on NULL with a real AP-REQ for {@code rpcrdma@localhost}. */
	private static ByteBuffer initCall(MitKdc kdc) throws Exception {
		KerberosCredentials client = KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("gss-dispatch"),
				kdc.principalWithKeytab("gss-dispatch"));
		byte[] token;
		try (GssSession session = GssSession.initiate(client, "rpcrdma@localhost")) {
			token = session.step(new byte[0]);
		}
		ByteBuffer message = ByteBuffer.allocate(512 + token.length);
		XdrEncoder encoder = new XdrEncoder(message);
		RpcMessageCodec.encodeCall(new RpcCall(XID, PROGRAM, 1, 0,
				new GssCredential(GssProcedure.INIT, 0, GssService.NONE, new byte[0]).toAuth(), AuthNone.INSTANCE),
				encoder);
		encoder.writeOpaque(token);
		return message.flip();
	}

	/** Runs accepted tasks on a thread of its own, or refuses them all. */
	private static final class RecordingExecutor implements ServerExecutor {

		final List<String> ran = new CopyOnWriteArrayList<>();

		private final boolean accepts;

		RecordingExecutor(boolean accepts) {
			this.accepts = accepts;
		}

		@Override
		public boolean tryExecute(Runnable task) {
			if (!this.accepts) {
				return false;
			}
			Thread worker = new Thread(() -> {
				this.ran.add(Thread.currentThread().getName());
				task.run();
			}, "gss-step");
			worker.start();
			return true;
		}

		@Override
		public String description() {
			return "recording executor";
		}

		@Override
		public void close() {
		}

	}

}
