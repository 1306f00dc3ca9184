package io.rpcrdma.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rpcrdma.kerberos.PasswordKeytab;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.gss.GssCredential;
import io.rpcrdma.oncrpc.gss.GssFailureException;
import io.rpcrdma.oncrpc.gss.GssProcedure;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.GssSession;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Context-creation tokens that JGSS fails on with an unchecked exception rather than a
 * GSSException (found by {@link RpcSecGssFuzzTest}): an AP-REQ whose ticket is genuine but
 * whose authenticator has an empty ciphertext makes the JDK's AES-CTS decryption throw
 * IllegalArgumentException. Such a token is a defective token like any other: its INIT gets
 * an {@code rpc_gss_init_res} with GSS_S_DEFECTIVE_TOKEN, and no context is left holding a
 * slot of the server's bounded table. Needs no KDC: the service's keys come from the password
 * the ticket was made for.
 */
class RpcSecGssMalformedTokenTest {

	@TempDir
	static Path directory;

	private static KerberosCredentials acceptor;

	private static byte[] token;

	@BeforeAll
	static void logIn() throws IOException {
		acceptor = PasswordKeytab.acceptor(directory);
		try (InputStream in = RpcSecGssMalformedTokenTest.class.getResourceAsStream("ap-req-with-empty-authenticator-cipher.der")) {
			token = in.readAllBytes();
		}
	}

	@Test
	void anApReqWithAnEmptyAuthenticatorCipherIsADefectiveToken() {
		try (GssSession session = GssSession.accept(acceptor)) {
			GssFailureException failure = assertThatExceptionOfType(GssFailureException.class)
				.isThrownBy(() -> session.step(token))
				.withMessageContaining("the peer's token is defective")
				.withCauseInstanceOf(IllegalArgumentException.class)
				.actual();
			assertThat(failure.major()).isEqualTo(GssFailureException.DEFECTIVE_TOKEN);
			assertThat(session.established()).isFalse();
		}
	}

	@Test
	void itsInitIsAnsweredWithTheFailureAndLeavesNoContext() {
		RpcSecGssServer server = new RpcSecGssServer(acceptor, RpcSecGssServer.DEFAULT_WINDOW, 2, Duration.ofHours(1));
		OpaqueAuth credential = new GssCredential(GssProcedure.INIT, 0, GssService.NONE, new byte[0]).toAuth();
		RpcCall call = new RpcCall(42, 400100, 1, 0, credential, OpaqueAuth.none());
		ByteBuffer message = ByteBuffer.allocate(RpcMessageCodec.encodedSize(call) + 4 + token.length + 3);
		XdrEncoder encoder = new XdrEncoder(message);
		RpcMessageCodec.encode(call, encoder);
		int arguments = message.position();
		encoder.writeOpaque(token);
		message.flip();
		XdrDecoder decoder = new XdrDecoder(message.duplicate().position(arguments));
		RpcSecGssServer.Outcome outcome = server.admit(call, message, 0, decoder,
				new RpcSecGssServer.Origin("peer", new Object(), new CompletableFuture<>()));

		RpcSecGssServer.Outcome answered = ((RpcSecGssServer.ContextStep) outcome).step().get();

		XdrDecoder reply = new XdrDecoder(((RpcSecGssServer.Control) answered).reply());
		assertThat(RpcMessageCodec.decodeReply(reply).isSuccess()).isTrue();
		assertThat(reply.readOpaqueBytes(GssCredential.MAX_HANDLE_LENGTH)).as("no handle").isEmpty();
		assertThat(reply.readInt()).as("gss_major").isEqualTo(GssFailureException.DEFECTIVE_TOKEN);
		assertThat(server.contexts()).isZero();
	}

}
