package io.rpcrdma.interop.nfs;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * An NFSv4.0 COMPOUND (RFC 7530 §16.2) that finds a file in the server's root and returns its
 * file handle: PUTROOTFH, LOOKUP name, GETFH. Linux's knfsd hands out file handles that NFSv3
 * accepts too, which spares the interop tests the MOUNT protocol.
 */
public final class Nfs4RootLookup {

	/** NFSv4's COMPOUND procedure. */
	public static final int COMPOUND = 1;

	private static final int OP_GETFH = 10;

	private static final int OP_LOOKUP = 15;

	private static final int OP_PUTROOTFH = 24;

	private static final int NFS4_FHSIZE = 128;

	private Nfs4RootLookup() {
	}

	/**
	 * The COMPOUND4args.
	 * @param name the file's name in the root directory
	 * @return the arguments
	 */
	public static CallBody arguments(String name) {
		return (XdrEncoder xdr) -> {
			xdr.writeString("rpcrdma-interop"); // tag
			xdr.writeInt(0); // minorversion
			xdr.writeInt(3);
			xdr.writeInt(OP_PUTROOTFH);
			xdr.writeInt(OP_LOOKUP).writeString(name);
			xdr.writeInt(OP_GETFH);
		};
	}

	/**
	 * Decodes the COMPOUND4res.
	 * @param results the reply's results
	 * @return the file handle
	 * @throws NfsStatusException if an operation failed
	 */
	public static byte[] fileHandle(XdrDecoder results) {
		int status = results.readInt();
		results.readOpaque(1024); // tag
		int count = results.readArrayCount("COMPOUND results", 3, 8);
		for (int i = 0; i < count; i++) {
			int op = results.readInt();
			int opStatus = results.readInt();
			if (opStatus != 0) {
				throw new NfsStatusException("COMPOUND operation " + op, opStatus);
			}
			if (op == OP_GETFH) {
				return results.readOpaqueBytes(NFS4_FHSIZE);
			}
		}
		throw new NfsStatusException("COMPOUND", status);
	}

}
