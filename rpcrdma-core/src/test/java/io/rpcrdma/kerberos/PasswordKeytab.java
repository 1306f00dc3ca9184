package io.rpcrdma.kerberos;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.security.auth.kerberos.KerberosKey;
import javax.security.auth.kerberos.KerberosPrincipal;

import io.rpcrdma.oncrpc.gss.KerberosCredentials;

/**
 * Writes a keytab holding a principal's keys derived from a password (RFC 3962 string-to-key
 * with the default salt, realm and name), in MIT's keytab format version 0x502. A service
 * logged in from it accepts contexts without any KDC, which is all a test of what an acceptor
 * does with tokens needs; a KDC whose principal has the same password issues tickets it can
 * read.
 */
public final class PasswordKeytab {

	/** The service whose keys {@link #acceptor} derives, in {@link MitKdc#REALM}. */
	public static final String SERVICE = MitKdc.qualified("rpcrdma/localhost");

	/**
	 * Its password, only for this throw-away realm: the AP-REQs among the test resources were
	 * made by a real MIT KDC whose principal had it (kadmin.local addprinc -pw), so their
	 * tickets decrypt with the keys derived here.
	 */
	public static final String PASSWORD = "rpcrdma-fuzz-only";

	private static final String[] ENCTYPES = { "aes256-cts-hmac-sha1-96", "aes128-cts-hmac-sha1-96" };

	private static final int KEY_VERSION = 1;

	private static final String KRB5_CONF = "java.security.krb5.conf";

	private PasswordKeytab() {
	}

	/**
	 * Logs {@link #SERVICE} in as an acceptor without a KDC: writes a {@code krb5.conf} naming
	 * the realm (and no KDC) and the keytab, and logs in with the JDK reading that
	 * {@code krb5.conf}. {@code java.security.krb5.conf} is set back afterwards, so that a
	 * {@link MitKdc} running in the same JVM (same realm) keeps serving the other tests.
	 * @param directory where to write both
	 * @return the service's credentials
	 * @throws IOException if the files cannot be written
	 */
	public static KerberosCredentials acceptor(Path directory) throws IOException {
		Path krb5Conf = Files.writeString(directory.resolve("krb5.conf"), """
				[libdefaults]
				  default_realm = %s
				  dns_lookup_kdc = false
				  dns_lookup_realm = false
				""".formatted(MitKdc.REALM));
		Path keytab = write(directory.resolve("service.keytab"), SERVICE, PASSWORD);
		String previous = System.getProperty(KRB5_CONF);
		if (previous != null) {
			// A KDC of the same realm is running: its krb5.conf serves the acceptor as well.
			return KerberosCredentials.acceptorFromKeytab(SERVICE, keytab);
		}
		System.setProperty(KRB5_CONF, krb5Conf.toString());
		try {
			return KerberosCredentials.acceptorFromKeytab(SERVICE, keytab);
		}
		finally {
			System.clearProperty(KRB5_CONF);
		}
	}

	/**
	 * @param keytab the file to write
	 * @param principal the principal with its realm, e.g. {@code rpcrdma/localhost@RPCRDMA.TEST}
	 * @param password its password
	 * @return the keytab
	 * @throws IOException if it cannot be written
	 */
	public static Path write(Path keytab, String principal, String password) throws IOException {
		KerberosPrincipal name = new KerberosPrincipal(principal);
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		DataOutputStream out = new DataOutputStream(bytes);
		out.writeShort(0x0502);
		for (String enctype : ENCTYPES) {
			KerberosKey key = new KerberosKey(name, password.toCharArray(), enctype);
			byte[] entry = entry(name, key);
			out.writeInt(entry.length);
			out.write(entry);
		}
		return Files.write(keytab, bytes.toByteArray());
	}

	private static byte[] entry(KerberosPrincipal name, KerberosKey key) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		DataOutputStream out = new DataOutputStream(bytes);
		String[] components = name.getName().substring(0, name.getName().lastIndexOf('@')).split("/");
		out.writeShort(components.length);
		counted(out, name.getRealm());
		for (String component : components) {
			counted(out, component);
		}
		out.writeInt(name.getNameType());
		out.writeInt(0); // timestamp
		// Key version 1, as a KDC's first key for a new principal has.
		out.writeByte(KEY_VERSION);
		out.writeShort(key.getKeyType());
		out.writeShort(key.getEncoded().length);
		out.write(key.getEncoded());
		out.writeInt(KEY_VERSION);
		return bytes.toByteArray();
	}

	private static void counted(DataOutputStream out, String text) throws IOException {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		out.writeShort(bytes.length);
		out.write(bytes);
	}

}
