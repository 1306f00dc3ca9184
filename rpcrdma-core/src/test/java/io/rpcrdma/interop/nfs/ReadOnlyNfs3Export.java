package io.rpcrdma.interop.nfs;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import io.rpcrdma.server.ProcedureHandler;
import io.rpcrdma.server.ProgramRegistry;
import io.rpcrdma.server.ServerCall;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * A read-only NFSv3 export served with the project's RPC server: one root directory holding a
 * few files, enough for Linux's NFS client to mount it over RPC-over-RDMA and {@code cat} a
 * file (RFC 1813 §3.3: NULL, GETATTR, LOOKUP, ACCESS, READ, FSSTAT, FSINFO, PATHCONF; every
 * other procedure is PROC_UNAVAIL). READ's data goes by the Write chunk the client offers
 * (RFC 8267 §4.1). A file handle is the 8-byte file id.
 */
public final class ReadOnlyNfs3Export {

	/** The root directory's file handle. */
	public static final byte[] ROOT = handle(1);

	private static final int NFS3ERR_NOENT = 2;

	private static final int NFS3ERR_ISDIR = 21;

	private static final int NFS3ERR_STALE = 70;

	private static final int ACCESS_READ_LOOKUP_EXECUTE = 0x01 | 0x02 | 0x20;

	private final Map<String, byte[]> files = new LinkedHashMap<>();

	private final int time = (int) (System.currentTimeMillis() / 1000);

	private final Map<Long, String> names = new LinkedHashMap<>();

	/**
	 * Creates an export with the given files in its root.
	 * @param files names and contents
	 */
	public ReadOnlyNfs3Export(Map<String, byte[]> files) {
		long fileid = 2;
		for (Map.Entry<String, byte[]> file : files.entrySet()) {
			this.files.put(file.getKey(), file.getValue().clone());
			this.names.put(fileid++, file.getKey());
		}
	}

	/**
	 * Registers NFS version 3's procedures.
	 * @param registry the server's registry
	 * @return the registry
	 */
	public ProgramRegistry register(ProgramRegistry registry) {
		registry.register(Nfs3.PROGRAM, Nfs3.VERSION, 0, ProcedureHandler.of((call, args, res) -> {
		}));
		registry.register(Nfs3.PROGRAM, Nfs3.VERSION, 1, ProcedureHandler.of((call, args, res) -> getattr(args, res)));
		registry.register(Nfs3.PROGRAM, Nfs3.VERSION, 3, ProcedureHandler.of((call, args, res) -> lookup(args, res)));
		registry.register(Nfs3.PROGRAM, Nfs3.VERSION, 4, ProcedureHandler.of((call, args, res) -> access(args, res)));
		registry.register(Nfs3.PROGRAM, Nfs3.VERSION, Nfs3.READ, ProcedureHandler.of(this::read));
		registry.register(Nfs3.PROGRAM, Nfs3.VERSION, 18, ProcedureHandler.of((call, args, res) -> fsstat(args, res)));
		registry.register(Nfs3.PROGRAM, Nfs3.VERSION, 19, ProcedureHandler.of((call, args, res) -> fsinfo(args, res)));
		registry.register(Nfs3.PROGRAM, Nfs3.VERSION, 20, ProcedureHandler.of((call, args, res) -> pathconf(args, res)));
		return registry;
	}

	private void getattr(XdrDecoder args, XdrEncoder res) {
		Fattr3 attributes = attributes(args.readOpaqueBytes(Nfs3.maxFileHandle()));
		if (attributes == null) {
			res.writeInt(NFS3ERR_STALE);
			return;
		}
		res.writeInt(0);
		attributes.encode(res);
	}

	private void lookup(XdrDecoder args, XdrEncoder res) {
		byte[] dir = args.readOpaqueBytes(Nfs3.maxFileHandle());
		String name = args.readString(255);
		Fattr3 root = rootAttributes();
		if (!Arrays.equals(dir, ROOT)) {
			res.writeInt(NFS3ERR_STALE).writeBoolean(false);
			return;
		}
		Long fileid = this.names.entrySet().stream().filter((e) -> e.getValue().equals(name)).map(Map.Entry::getKey)
			.findFirst().orElse(null);
		if (fileid == null) {
			res.writeInt(NFS3ERR_NOENT);
			root.encodePostOp(res);
			return;
		}
		res.writeInt(0).writeOpaque(handle(fileid));
		attributes(handle(fileid)).encodePostOp(res);
		root.encodePostOp(res);
	}

	private void access(XdrDecoder args, XdrEncoder res) {
		Fattr3 attributes = attributes(args.readOpaqueBytes(Nfs3.maxFileHandle()));
		int asked = args.readInt();
		if (attributes == null) {
			res.writeInt(NFS3ERR_STALE).writeBoolean(false);
			return;
		}
		res.writeInt(0);
		attributes.encodePostOp(res);
		res.writeInt(asked & ACCESS_READ_LOOKUP_EXECUTE);
	}

	private void read(ServerCall call, XdrDecoder args, XdrEncoder res) {
		byte[] fh = args.readOpaqueBytes(Nfs3.maxFileHandle());
		long offset = args.readHyper();
		long count = args.readUnsignedInt();
		Fattr3 attributes = attributes(fh);
		if (attributes == null || attributes.directory()) {
			res.writeInt((attributes == null) ? NFS3ERR_STALE : NFS3ERR_ISDIR).writeBoolean(false);
			return;
		}
		byte[] content = this.files.get(this.names.get(attributes.fileid()));
		int from = (int) Math.min(offset, content.length);
		int length = (int) Math.min(count, content.length - from);
		res.writeInt(0);
		attributes.encodePostOp(res);
		res.writeInt(length).writeBoolean(from + length == content.length);
		call.writeDdpOpaque(res, ByteBuffer.wrap(content, from, length));
	}

	private void fsstat(XdrDecoder args, XdrEncoder res) {
		args.readOpaqueBytes(Nfs3.maxFileHandle());
		res.writeInt(0);
		rootAttributes().encodePostOp(res);
		res.writeHyper(1L << 30).writeHyper(0).writeHyper(0); // tbytes, fbytes, abytes
		res.writeHyper(this.files.size() + 1L).writeHyper(0).writeHyper(0); // tfiles, ffiles, afiles
		res.writeInt(0); // invarsec
	}

	private void fsinfo(XdrDecoder args, XdrEncoder res) {
		args.readOpaqueBytes(Nfs3.maxFileHandle());
		res.writeInt(0);
		rootAttributes().encodePostOp(res);
		int max = 1 << 20;
		res.writeInt(max).writeInt(max).writeInt(4096); // rtmax, rtpref, rtmult
		res.writeInt(max).writeInt(max).writeInt(4096); // wtmax, wtpref, wtmult
		res.writeInt(64 << 10); // dtpref
		res.writeHyper(Long.MAX_VALUE); // maxfilesize
		res.writeInt(1).writeInt(0); // time_delta
		res.writeInt(0x0008 | 0x0010); // FSF3_HOMOGENEOUS | FSF3_CANSETTIME
	}

	private void pathconf(XdrDecoder args, XdrEncoder res) {
		args.readOpaqueBytes(Nfs3.maxFileHandle());
		res.writeInt(0);
		rootAttributes().encodePostOp(res);
		res.writeInt(1).writeInt(255); // linkmax, name_max
		res.writeBoolean(true).writeBoolean(true).writeBoolean(false).writeBoolean(true);
	}

	private Fattr3 rootAttributes() {
		return new Fattr3(true, 4096, 1, this.time);
	}

	private Fattr3 attributes(byte[] fh) {
		if (fh.length != 8) {
			return null;
		}
		long fileid = ByteBuffer.wrap(fh).getLong();
		if (fileid == 1) {
			return rootAttributes();
		}
		String name = this.names.get(fileid);
		return (name == null) ? null : new Fattr3(false, this.files.get(name).length, fileid, this.time);
	}

	private static byte[] handle(long fileid) {
		return ByteBuffer.allocate(8).putLong(fileid).array();
	}

}
