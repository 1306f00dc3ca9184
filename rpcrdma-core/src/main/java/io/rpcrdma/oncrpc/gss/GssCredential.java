package io.rpcrdma.oncrpc.gss;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.RawAuth;
import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrException;

/**
 * The body of an RPCSEC_GSS credential (RFC 2203 §5):
 *
 * <pre>
 * struct rpc_gss_cred_vers_1_t {
 *     rpc_gss_proc_t    gss_proc;
 *     unsigned int      seq_num;
 *     rpc_gss_service_t service;
 *     opaque            handle&lt;&gt;;
 * };
 * union rpc_gss_cred_t switch (unsigned int version) {
 *     case RPCSEC_GSS_VERS_1: rpc_gss_cred_vers_1_t rpc_gss_cred_vers_1_t;
 * };
 * </pre>
 *
 * @param procedure what the call asks
 * @param sequence its sequence number
 * @param service the protection of its body
 * @param handle the context handle, empty for INIT
 */
public record GssCredential(GssProcedure procedure, int sequence, GssService service, byte[] handle) {

	/** {@code RPCSEC_GSS_VERS_1}. */
	public static final int VERSION_1 = 1;

	/** RFC 2203 §5.3.3.1: sequence numbers at or above this end the context. */
	public static final int MAXSEQ = 0x8000_0000;

	/** The longest handle accepted: what fits an opaque_auth body of 400 bytes after the fixed fields. */
	public static final int MAX_HANDLE_LENGTH = OpaqueAuth.MAX_BODY_LENGTH - 20;

	/** Checks the parts. */
	public GssCredential {
		Objects.requireNonNull(procedure, "procedure");
		Objects.requireNonNull(service, "service");
		if (handle.length > MAX_HANDLE_LENGTH) {
			throw new IllegalArgumentException("RPCSEC_GSS handle of " + handle.length + " bytes exceeds "
					+ MAX_HANDLE_LENGTH);
		}
		handle = handle.clone();
	}

	/** @return a copy of the handle */
	@Override
	public byte[] handle() {
		return this.handle.clone();
	}

	/**
	 * @param other a handle
	 * @return whether it is this credential's, without copying
	 */
	public boolean hasHandle(byte[] other) {
		return Arrays.equals(this.handle, other);
	}

	/** @return the credential as an {@code opaque_auth} of flavor RPCSEC_GSS */
	public RawAuth toAuth() {
		ByteBuffer body = ByteBuffer.allocate(20 + (int) Xdr.pad(this.handle.length));
		new XdrEncoder(body).writeInt(VERSION_1)
			.writeInt(this.procedure.code())
			.writeInt(this.sequence)
			.writeInt(this.service.code())
			.writeOpaque(this.handle);
		return new RawAuth(AuthFlavor.RPCSEC_GSS, body.array());
	}

	/**
	 * Reads the credential of an RPCSEC_GSS call.
	 * @param auth the call's credential, of flavor RPCSEC_GSS
	 * @return the credential
	 * @throws GssCredentialException if the body is not an RPCSEC_GSS version 1 credential
	 */
	public static GssCredential of(RawAuth auth) {
		if (auth.flavor() != AuthFlavor.RPCSEC_GSS) {
			throw new GssCredentialException("credential of flavor " + AuthFlavor.name(auth.flavor()) + ", not RPCSEC_GSS");
		}
		XdrDecoder decoder = new XdrDecoder(ByteBuffer.wrap(auth.body()));
		try {
			int version = decoder.readInt();
			if (version != VERSION_1) {
				throw new GssCredentialException("RPCSEC_GSS version " + Integer.toUnsignedString(version)
						+ " where only version 1 exists (RFC 2203 §5.1)");
			}
			int proc = decoder.readInt();
			GssProcedure procedure = GssProcedure.of(proc);
			int sequence = decoder.readInt();
			int svc = decoder.readInt();
			GssService service = GssService.of(svc);
			byte[] handle = decoder.readOpaqueBytes(MAX_HANDLE_LENGTH);
			if (procedure == null || service == null) {
				throw new GssCredentialException("RPCSEC_GSS credential with gss_proc " + Integer.toUnsignedString(proc)
						+ " and service " + Integer.toUnsignedString(svc) + " (RFC 2203 §5 defines 0-3 and 1-3)");
			}
			return new GssCredential(procedure, sequence, service, handle);
		}
		catch (XdrException ex) {
			throw new GssCredentialException("RPCSEC_GSS credential cut short or malformed: " + ex.getMessage());
		}
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof GssCredential that && this.procedure == that.procedure
				&& this.sequence == that.sequence && this.service == that.service && Arrays.equals(this.handle, that.handle);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.procedure, this.sequence, this.service) * 31 + Arrays.hashCode(this.handle);
	}

	@Override
	public String toString() {
		return "GssCredential[" + this.procedure + ", seq " + Integer.toUnsignedString(this.sequence) + ", " + this.service
				+ ", handle of " + this.handle.length + " bytes]";
	}

}
