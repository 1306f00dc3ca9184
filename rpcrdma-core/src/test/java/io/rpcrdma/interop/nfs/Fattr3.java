package io.rpcrdma.interop.nfs;

import io.rpcrdma.xdr.XdrEncoder;

/**
 * The attributes of a file or directory of {@link ReadOnlyNfs3Export} (fattr3, RFC 1813 §2.6):
 * owned by root, read-only for everyone, times fixed at the export's creation.
 *
 * @param directory whether it is a directory (NF3DIR) or a regular file (NF3REG)
 * @param size its size in bytes
 * @param fileid its file id, also its file handle
 * @param time its access, modification and change time, in seconds
 */
public record Fattr3(boolean directory, long size, long fileid, int time) {

	private static final int NF3REG = 1;

	private static final int NF3DIR = 2;

	private static final long FSID = 0x8267;

	/**
	 * Encodes the 84 bytes of fattr3.
	 * @param xdr where
	 */
	public void encode(XdrEncoder xdr) {
		xdr.writeInt(this.directory ? NF3DIR : NF3REG);
		xdr.writeInt(this.directory ? 0555 : 0444);
		xdr.writeInt(this.directory ? 2 : 1); // nlink
		xdr.writeInt(0).writeInt(0); // uid, gid
		xdr.writeHyper(this.size).writeHyper((this.size + 4095) & ~4095L); // size, used
		xdr.writeInt(0).writeInt(0); // rdev
		xdr.writeHyper(FSID).writeHyper(this.fileid);
		for (int i = 0; i < 3; i++) {
			xdr.writeInt(this.time).writeInt(0);
		}
	}

	/**
	 * Encodes post_op_attr with the attributes present.
	 * @param xdr where
	 */
	public void encodePostOp(XdrEncoder xdr) {
		xdr.writeBoolean(true);
		encode(xdr);
	}

}
