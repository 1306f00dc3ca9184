package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.kerberos.MitKdcExtension;
import io.rpcrdma.oncrpc.AcceptedReply;
import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.AuthNone;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssProcedure;
import io.rpcrdma.oncrpc.gss.GssProtectedBody;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.GssSession;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecurityPolicy;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The duplicate request cache under RPCSEC_GSS (RFC 2203), against a real MIT KDC: every
 * transmission of a call carries a new sequence number (§5.3.3.1), so a retransmission differs
 * from the original in its credential, its verifier and, under krb5i and krb5p, its protected
 * body. It must still be recognised, must not run the non-idempotent procedure again, and must
 * get the cached reply under its own verifier and protection (§5.3.3.2), which the client
 * checks against the sequence number it sent. A new call reusing the xid, and another
 * principal's call with the same xid and arguments from the same host, run.
 */
@Tag("conformance")
@ExtendWith(MitKdcExtension.class)
class RpcSecGssDuplicateRequestTest {

	private static final int PROGRAM = 100_099;

	private static final String HOST = "host-a";

	private final AtomicInteger runs = new AtomicInteger();

	@ParameterizedTest
	@EnumSource(GssService.class)
	void aRetransmissionWithANewSequenceNumberGetsTheCachedReplyUnderItsOwnVerifierAndDoesNotRunAgain(
			GssService service, MitKdc kdc) throws Exception {
		RpcSecGssServer rpcsecGss = new RpcSecGssServer(KerberosCredentials.acceptorFromKeytab(
				MitKdc.qualified("rpcrdma/localhost"), kdc.principalWithKeytab("rpcrdma/localhost")));
		ProgramRegistry registry = new ProgramRegistry().register(PROGRAM, 1, 1, Idempotence.NON_IDEMPOTENT,
				ProcedureHandler.of((call, arguments, results) -> {
					// What it returns says how many times it ran: a second run shows.
					results.writeInt(arguments.readInt() * 10 + this.runs.incrementAndGet());
				}));
		RpcDispatcher dispatcher = new RpcDispatcher(registry, ServerExecutor.direct(),
				new DuplicateRequestCache(64, 1024, Duration.ofMinutes(1)), new InFlightTracker(),
				SecurityPolicy.builder().rpcsecGss(rpcsecGss).build());
		CapturingConnection connection = new CapturingConnection(8192);
		Client alice = Client.establish(kdc, "gss-dup-alice", dispatcher, connection);
		Client bob = Client.establish(kdc, "gss-dup-bob", dispatcher, connection);
		int xid = 0x5eed_0001;

		assertThat(alice.call(xid, 1, service, 7)).as("the original").isEqualTo(71);
		assertThat(alice.lastOutcome).isEqualTo(DispatchOutcome.REPLIED);

		assertThat(alice.call(xid, 2, service, 7)).as("the retransmission, answered from the cache").isEqualTo(71);
		assertThat(alice.lastOutcome).isEqualTo(DispatchOutcome.REPLIED_FROM_CACHE);
		assertThat(this.runs).as("runs of the non-idempotent procedure").hasValue(1);

		assertThat(bob.call(xid, 1, service, 7)).as("another principal, same host, xid and arguments").isEqualTo(72);
		assertThat(alice.call(xid, 3, service, 8)).as("a new call reusing the xid").isEqualTo(83);
		assertThat(this.runs).hasValue(3);
		assertThat(dispatcher.duplicateRequestCacheStats().orElseThrow().hits()).isEqualTo(1);
	}

	/** One RPCSEC_GSS context, made through the dispatcher, and calls under it built by hand. */
	private static final class Client {

		private final GssSession session;

		private final byte[] handle;

		private final RpcDispatcher dispatcher;

		private final CapturingConnection connection;

		DispatchOutcome lastOutcome;

		private Client(GssSession session, byte[] handle, RpcDispatcher dispatcher, CapturingConnection connection) {
			this.session = session;
			this.handle = handle;
			this.dispatcher = dispatcher;
			this.connection = connection;
		}

		static Client establish(MitKdc kdc, String user, RpcDispatcher dispatcher, CapturingConnection connection)
				throws Exception {
			GssSession session = GssSession.initiate(
					KerberosCredentials.initiatorFromKeytab(MitKdc.qualified(user), kdc.principalWithKeytab(user)),
					"rpcrdma@localhost");
			byte[] token = session.step(new byte[0]);
			ByteBuffer init = ByteBuffer.allocate(512 + token.length);
			XdrEncoder encoder = new XdrEncoder(init);
			RpcMessageCodec.encodeCall(new RpcCall(0x1111, PROGRAM, 1, 0,
					new GssCredential(GssProcedure.INIT, 0, GssService.NONE, new byte[0]).toAuth(), AuthNone.INSTANCE),
					encoder);
			encoder.writeOpaque(token);
			dispatcher.dispatch(init.flip(), HOST, connection, connection).get(10, TimeUnit.SECONDS);
			XdrDecoder reply = new XdrDecoder(ByteBuffer.wrap(connection.nextReply()));
			assertThat(RpcMessageCodec.decodeReply(reply).isSuccess()).isTrue();
			byte[] handle = reply.readOpaqueBytes(400);
			assertThat(reply.readInt()).as("GSS_S_COMPLETE").isZero();
			reply.readInt();
			reply.readInt();
			byte[] answer = reply.readOpaqueBytes(8192);
			if (answer.length > 0) {
				session.step(answer);
			}
			assertThat(session.established()).isTrue();
			return new Client(session, handle, dispatcher, connection);
		}

		/**
		 * Sends procedure 1 with {@code argument} as transmission {@code sequence} of call
		 * {@code xid}, and returns its result after checking the reply's verifier and protection
		 * against that sequence number.
		 */
		int call(int xid, int sequence, GssService service, int argument) throws Exception {
			OpaqueAuth credential = new GssCredential(GssProcedure.DATA, sequence, service, this.handle).toAuth();
			ByteBuffer header = ByteBuffer.allocate(1024);
			RpcMessageCodec.encodeCall(new RpcCall(xid, PROGRAM, 1, 1, credential, AuthNone.INSTANCE),
					new XdrEncoder(header));
			// RFC 2203 §5.3.1: the verifier is a MIC over the header up to the verifier.
			int headerLength = 24 + RpcMessageCodec.encodedSize(credential);
			byte[] signed = new byte[headerLength];
			header.get(0, signed);
			ByteBuffer message = ByteBuffer.allocate(2048);
			message.put(signed);
			XdrEncoder encoder = new XdrEncoder(message);
			encoder.writeInt(AuthFlavor.RPCSEC_GSS).writeOpaque(this.session.mic(signed, 0, headerLength));
			if (service == GssService.NONE) {
				encoder.writeInt(argument);
			}
			else {
				encoder.writeFixedOpaque(GssProtectedBody.protect(this.session, service, sequence,
						ByteBuffer.allocate(4).putInt(argument).flip()));
			}
			this.lastOutcome = this.dispatcher.dispatch(message.flip(), HOST, this.connection, this.connection)
				.get(10, TimeUnit.SECONDS);
			XdrDecoder reply = new XdrDecoder(ByteBuffer.wrap(this.connection.nextReply()));
			RpcReply decoded = RpcMessageCodec.decodeReply(reply);
			assertThat(decoded.xid()).isEqualTo(xid);
			assertThat(decoded.isSuccess()).isTrue();
			byte[] mic = ((RawAuth) ((AcceptedReply) decoded.body()).verifier()).body();
			assertThat(this.session.verifyMic(ByteBuffer.allocate(4).putInt(sequence).array(), 0, 4, mic))
				.as("the reply's verifier is the MIC over this transmission's sequence number (RFC 2203 §5.3.3.2)")
				.isTrue();
			if (service == GssService.NONE) {
				return reply.readInt();
			}
			return GssProtectedBody.unprotect(this.session, service, (number) -> number == sequence, reply,
					reply.remaining()).getInt();
		}

	}

}
