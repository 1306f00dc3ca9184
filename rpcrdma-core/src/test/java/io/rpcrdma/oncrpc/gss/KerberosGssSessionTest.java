package io.rpcrdma.oncrpc.gss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.kerberos.MitKdcExtension;

/**
 * The Kerberos GSS-API layer RPCSEC_GSS stands on, against a real MIT KDC: a context between
 * a client logged in from its keytab and a service logged in from its own, established with
 * tickets the KDC issued; MICs and wrapped tokens that verify, and tampered ones that do not;
 * login failures that say what to fix.
 */
@Tag("conformance")
@ExtendWith(MitKdcExtension.class)
class KerberosGssSessionTest {

	private static final String SERVICE = "rpcrdma/localhost";

	@Test
	void aClientAndAServiceEstablishAContextWithTicketsFromTheKdc(MitKdc kdc) throws Exception {
		try (GssSession client = client(kdc, "alice"); GssSession server = server(kdc)) {
			establish(client, server);
			assertThat(server.peer()).isEqualTo(MitKdc.qualified("alice"));
			assertThat(client.peer()).isEqualTo("rpcrdma@localhost");
		}
	}

	@Test
	void aMicVerifiesOnlyOverTheBytesItWasMadeFor(MitKdc kdc) throws Exception {
		try (GssSession client = client(kdc, "bob"); GssSession server = server(kdc)) {
			establish(client, server);
			byte[] header = "xid msg_type rpcvers prog vers proc cred".getBytes(StandardCharsets.US_ASCII);
			byte[] mic = client.mic(header, 0, header.length);
			assertThat(server.verifyMic(header, 0, header.length, mic)).isTrue();
			header[3] ^= 1;
			assertThat(server.verifyMic(header, 0, header.length, mic)).as("a changed header").isFalse();
			header[3] ^= 1;
			mic[mic.length - 1] ^= 1;
			assertThat(server.verifyMic(header, 0, header.length, mic)).as("a changed MIC").isFalse();
			assertThat(server.verifyMic(header, 0, header.length, new byte[] { 1, 2, 3 })).as("no MIC at all").isFalse();
		}
	}

	@Test
	void aWrappedBodyUnwrapsOnlyUntouched(MitKdc kdc) throws Exception {
		try (GssSession client = client(kdc, "carol"); GssSession server = server(kdc)) {
			establish(client, server);
			byte[] body = "seq_num and the procedure's arguments".getBytes(StandardCharsets.US_ASCII);
			byte[] wrapped = client.wrap(body, 0, body.length);
			assertThat(new String(wrapped, StandardCharsets.ISO_8859_1)).as("the body is encrypted").doesNotContain("arguments");
			assertThat(server.unwrap(wrapped)).isEqualTo(body);
			wrapped[wrapped.length / 2] ^= 1;
			assertThat(server.unwrap(wrapped)).isNull();
		}
	}

	@Test
	void aMissingKeytabSaysWhichAndHowToMakeOne(MitKdc kdc) {
		assertThatExceptionOfType(KerberosLoginException.class)
			.isThrownBy(() -> KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("dave"),
					Path.of("target", "no-such.keytab")))
			.withMessageContaining("no-such.keytab")
			.withMessageContaining("ktadd");
	}

	@Test
	void aKeytabWithAStaleKeyFailsTheLoginNamingThePrincipal(MitKdc kdc) throws Exception {
		Path keytab = kdc.principalWithKeytab("erin");
		kdc.changeKey("erin");
		assertThatExceptionOfType(KerberosLoginException.class)
			.isThrownBy(() -> KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("erin"), keytab))
			.withMessageContaining("Kerberos login of " + MitKdc.qualified("erin"))
			.withMessageContaining(keytab.toString());
	}

	@Test
	void aPrincipalInAnotherRealmThanTheKeytabsSaysHowToCompare(MitKdc kdc) throws Exception {
		Path keytab = kdc.principalWithKeytab("frank");
		assertThatExceptionOfType(KerberosLoginException.class)
			.isThrownBy(() -> KerberosCredentials.initiatorFromKeytab("frank@NOWHERE.TEST", keytab))
			.withMessageContaining("frank@NOWHERE.TEST")
			.withMessageContaining("klist -k " + keytab);
	}

	private static GssSession client(MitKdc kdc, String user) throws Exception {
		Path keytab = kdc.principalWithKeytab(user);
		return GssSession.initiate(KerberosCredentials.initiatorFromKeytab(MitKdc.qualified(user), keytab),
				"rpcrdma@localhost");
	}

	private static GssSession server(MitKdc kdc) throws Exception {
		return GssSession.accept(KerberosCredentials.acceptorFromKeytab(MitKdc.qualified(SERVICE),
				kdc.principalWithKeytab(SERVICE)));
	}

	/** RFC 2203 §5.2: tokens go back and forth until both ends are established. */
	static void establish(GssSession client, GssSession server) {
		byte[] token = new byte[0];
		for (int round = 0; round < 5 && !(client.established() && server.established()); round++) {
			token = client.step(token);
			if (token.length > 0) {
				token = server.step(token);
			}
		}
		assertThat(client.established()).as("client established").isTrue();
		assertThat(server.established()).as("server established").isTrue();
	}

}
