package io.rpcrdma.oncrpc.gss;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import javax.security.auth.login.LoginException;

import org.junit.jupiter.api.Test;

/**
 * What a failed Kerberos login says to do, for the failures the KDC test cannot provoke on one
 * host (a clock that differs from the KDC's, a KDC that does not answer) as for the ones it
 * can: JGSS's own message, then the remedy.
 */
class KerberosLoginMessagesTest {

	private static final Path KEYTAB = Path.of("/etc/rpcrdma/alice.keytab");

	@Test
	void aClockSkewSaysToSynchroniseTheClocks() {
		String message = KerberosCredentials.explain("alice@EXAMPLE.COM", KEYTAB, null,
				new LoginException("Clock skew too great (37)"));
		assertThat(message).startsWith("Kerberos login of alice@EXAMPLE.COM from the keytab " + KEYTAB + " failed:")
			.contains("Clock skew too great (37)")
			.contains("synchronise them");
	}

	@Test
	void aKdcThatDoesNotAnswerSaysWhereTheRealmIsConfigured() {
		assertThat(KerberosCredentials.explain("alice@EXAMPLE.COM", KEYTAB, null,
				new LoginException("Cannot locate KDC")))
			.contains("no KDC answers for the realm")
			.contains("krb5.conf");
	}

	@Test
	void anUnknownPrincipalSaysToCheckItsNameAndRealm() {
		assertThat(KerberosCredentials.explain("alice@NOWHERE.TEST", KEYTAB, null,
				new LoginException("Client not found in Kerberos database (6)")))
			.contains("the KDC does not know the principal");
	}

	@Test
	void anEmptyTicketCacheSaysToRunKinit() {
		assertThat(KerberosCredentials.explain("alice@EXAMPLE.COM", null, Path.of("/tmp/krb5cc_1000"),
				new LoginException("Unable to obtain Principal Name for authentication")))
			.contains("ticket cache /tmp/krb5cc_1000")
			.contains("run kinit");
	}

}
