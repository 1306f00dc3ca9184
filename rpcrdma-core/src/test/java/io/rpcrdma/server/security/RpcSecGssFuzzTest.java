package io.rpcrdma.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rpcrdma.fuzz.DecodeBudget;
import io.rpcrdma.kerberos.PasswordKeytab;
import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.OncRpcException;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssCredentialException;
import io.rpcrdma.oncrpc.gss.GssProtectedBody;
import io.rpcrdma.oncrpc.gss.GssProtectedBodyException;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.GssSession;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrException;

/**
 * Fuzzes what any peer, authenticated or not, can send a server that speaks RPCSEC_GSS
 * (RFC 2203): the credential body, the context-creation token that goes to the JDK's
 * Kerberos acceptor (an AP-REQ, RFC 4121), the handles and sequence numbers of DATA and
 * DESTROY calls, and the framing of integrity and privacy bodies. The service's keys come
 * from a password ({@link PasswordKeytab}), so no KDC is needed; an AP-REQ whose ticket a real
 * MIT KDC made for that password is among the seeds. Contract: {@link RpcSecGssServer#admit}
 * and the context step it hands out never throw (the dispatcher does not expect it to); each
 * call gets a reply that decodes or an AUTH_ERROR; a failed creation leaves no context behind;
 * a credential reads or is a {@link GssCredentialException}, and encodes back to itself; a
 * protected body is unwrapped or is a {@link GssProtectedBodyException}.
 * <p>
 * Input: a settings byte (bit 0 the call came over a connection; bit 1 its body is read as
 * privacy rather than integrity), then the call as the dispatcher receives it.
 */
class RpcSecGssFuzzTest {

	private static Path directory;

	private static KerberosCredentials acceptor;

	private static GssSession unestablished;

	@BeforeAll
	static void logIn() throws IOException {
		directory = Files.createTempDirectory("rpcsec-gss-fuzz");
		acceptor = PasswordKeytab.acceptor(directory);
		unestablished = GssSession.accept(acceptor);
	}

	@AfterAll
	static void cleanUp() throws IOException {
		unestablished.close();
		try (var files = Files.list(directory)) {
			for (Path file : files.toList()) {
				Files.delete(file);
			}
		}
		Files.delete(directory);
	}

	/**
	 * The JDK's Kerberos acceptor allocates some 150 KB for any token it gets far into (its
	 * ciphers, key derivation and ASN.1 objects), a cost fixed per token.
	 */
	private static final long ACCEPTOR_BYTES = 512 * 1024;

	@FuzzTest(maxDuration = "30s")
	void admitRpcSecGssCall(byte[] input) {
		DecodeBudget.check(input.length, ACCEPTOR_BYTES, () -> admit(input));
	}

	private static void admit(byte[] input) {
		if (input.length == 0) {
			return;
		}
		int settings = input[0];
		byte[] message = Arrays.copyOfRange(input, 1, input.length);
		XdrDecoder decoder = new XdrDecoder(ByteBuffer.wrap(message));
		RpcCall call;
		try {
			call = RpcMessageCodec.decodeCall(decoder);
		}
		catch (OncRpcException | XdrException notACall) {
			return;
		}
		if (call.credential().flavor() != AuthFlavor.RPCSEC_GSS) {
			return;
		}
		credentialRoundTrip((RawAuth) call.credential());
		unprotect(settings, message, decoder.position());
		// A server per input, as each input is a peer of its own: nothing carries over.
		RpcSecGssServer server = new RpcSecGssServer(acceptor, RpcSecGssServer.DEFAULT_WINDOW, 4, Duration.ofHours(1));
		boolean connected = (settings & 1) != 0;
		RpcSecGssServer.Origin origin = new RpcSecGssServer.Origin("fuzz-peer", connected ? new Object() : null,
				connected ? new CompletableFuture<>() : null);
		RpcSecGssServer.Outcome outcome = server.admit(call, ByteBuffer.wrap(message), 0, decoder, origin);
		boolean creation = outcome instanceof RpcSecGssServer.ContextStep;
		if (outcome instanceof RpcSecGssServer.ContextStep step) {
			outcome = step.step().get();
		}
		if (outcome instanceof RpcSecGssServer.Control control) {
			XdrDecoder reply = new XdrDecoder(control.reply().duplicate());
			assertThat(RpcMessageCodec.decodeReply(reply).xid()).isEqualTo(call.xid());
			if (creation) {
				// RFC 2203 §5.2.3.1 rpc_gss_init_res: a failed creation holds no context.
				reply.readOpaqueBytes(GssCredential.MAX_HANDLE_LENGTH);
				int major = reply.readInt();
				if (major != RpcSecGssServer.GSS_S_COMPLETE && major != RpcSecGssServer.GSS_S_CONTINUE_NEEDED) {
					assertThat(server.contexts()).as("contexts after GSS major status 0x%x", major).isZero();
				}
			}
		}
		else if (outcome instanceof RpcSecGssServer.Refused refused) {
			assertThat(refused.status()).isNotNull();
			assertThat(refused.reason()).isNotBlank();
		}
		// Without an established context no call is admitted or discarded, and a creation that
		// failed holds no context.
		assertThat(outcome).isInstanceOfAny(RpcSecGssServer.Control.class, RpcSecGssServer.Refused.class);
		assertThat(server.contexts()).isLessThanOrEqualTo(1);
	}

	private static void credentialRoundTrip(RawAuth auth) {
		GssCredential credential;
		try {
			credential = GssCredential.of(auth);
		}
		catch (GssCredentialException expected) {
			assertThat(expected.getMessage()).isNotBlank();
			return;
		}
		assertThat(GssCredential.of(credential.toAuth())).isEqualTo(credential);
	}

	/** The arguments read as a protected body, under a context that cannot verify or unwrap. */
	private static void unprotect(int settings, byte[] message, int arguments) {
		GssService service = (settings & 2) != 0 ? GssService.PRIVACY : GssService.INTEGRITY;
		XdrDecoder body = new XdrDecoder(ByteBuffer.wrap(message, arguments, message.length - arguments));
		try {
			GssProtectedBody.unprotect(unestablished, service, (sequence) -> true, body, 64 * 1024);
			throw new AssertionError("a context that is not established unprotected a body");
		}
		catch (GssProtectedBodyException expected) {
			assertThat(expected.getMessage()).isNotBlank();
		}
	}

}
