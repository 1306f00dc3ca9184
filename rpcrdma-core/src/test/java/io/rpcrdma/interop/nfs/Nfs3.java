package io.rpcrdma.interop.nfs;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.transport.DdpRange;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The NFSv3 procedures the interop tests call (RFC 1813 §3.3), with the chunks RFC 8267 makes
 * of them: WRITE's data is DDP-eligible and goes in a Read chunk, READ's data comes back in
 * the Write chunk the call offers, and READDIR's reply, which may exceed the inline threshold,
 * comes back in a Reply chunk.
 */
public final class Nfs3 {

	/** NFS's program number. */
	public static final int PROGRAM = 100003;

	/** NFS version 3. */
	public static final int VERSION = 3;

	/** READ. */
	public static final int READ = 6;

	/** WRITE. */
	public static final int WRITE = 7;

	/** READDIR. */
	public static final int READDIR = 16;

	/** stable_how FILE_SYNC. */
	private static final int FILE_SYNC = 2;

	private static final int NFS3_FHSIZE = 64;

	private static final int FATTR3_SIZE = 84;

	private static final int WCC_ATTR_SIZE = 24;

	private static final int COOKIEVERF = 8;

	private Nfs3() {
	}

	/**
	 * WRITE3args with FILE_SYNC.
	 * @param fh the file
	 * @param offset where to write
	 * @param data what to write
	 * @return the arguments
	 */
	public static CallBody writeArguments(byte[] fh, long offset, ByteBuffer data) {
		return (XdrEncoder xdr) -> {
			xdr.writeOpaque(fh);
			xdr.writeHyper(offset);
			xdr.writeInt(data.remaining());
			xdr.writeInt(FILE_SYNC);
			xdr.writeOpaque(data.duplicate());
		};
	}

	/**
	 * WRITE's chunk shape: the data, after its length word, in a Read chunk (RFC 8267 §4.2).
	 * @param fh the file handle the arguments carry
	 * @param length the data's length
	 * @return the shape
	 */
	public static CallChunks writeShape(byte[] fh, int length) {
		int dataOffset = 4 + padded(fh.length) + 8 + 4 + 4 + 4;
		return new CallChunks(dataOffset + padded(length) + 64, List.of(new DdpRange(dataOffset, length)), List.of(),
				1024);
	}

	/**
	 * Decodes WRITE3res.
	 * @param results the reply's results
	 * @return how many bytes the server wrote
	 * @throws NfsStatusException if the server refused
	 */
	public static int writeCount(XdrDecoder results) {
		int status = results.readInt();
		skipWccData(results);
		if (status != 0) {
			throw new NfsStatusException("WRITE", status);
		}
		int count = results.readInt();
		results.readInt(); // committed
		results.readFixedOpaque(8); // writeverf3
		return count;
	}

	/**
	 * READ3args.
	 * @param fh the file
	 * @param offset where to read
	 * @param count how much
	 * @return the arguments
	 */
	public static CallBody readArguments(byte[] fh, long offset, int count) {
		return (XdrEncoder xdr) -> xdr.writeOpaque(fh).writeHyper(offset).writeInt(count);
	}

	/**
	 * READ's chunk shape: a Write chunk for the data (RFC 8267 §4.1).
	 * @param count the most bytes to read
	 * @return the shape
	 */
	public static CallChunks readShape(int count) {
		return new CallChunks(256, List.of(), List.of(count), 1024);
	}

	/**
	 * Skips READ3resok up to its data, which the caller reads from the Write chunk.
	 * @param results the reply's results
	 * @return whether the end of the file was reached
	 * @throws NfsStatusException if the server refused
	 */
	public static boolean readHeader(XdrDecoder results) {
		int status = results.readInt();
		skipPostOpAttr(results);
		if (status != 0) {
			throw new NfsStatusException("READ", status);
		}
		results.readInt(); // count
		return results.readBoolean();
	}

	/**
	 * READDIR3args from the start of the directory.
	 * @param dir the directory
	 * @param count the most bytes of reply wanted
	 * @return the arguments
	 */
	public static CallBody readdirArguments(byte[] dir, int count) {
		return (XdrEncoder xdr) -> xdr.writeOpaque(dir).writeHyper(0).writeFixedOpaque(new byte[COOKIEVERF]).writeInt(count);
	}

	/**
	 * READDIR's chunk shape: a reply that may be larger than the inline threshold, so a Reply
	 * chunk (RFC 8166 §3.4.7).
	 * @param count the reply's size limit
	 * @return the shape
	 */
	public static CallChunks readdirShape(int count) {
		return CallChunks.of(256, count + 1024);
	}

	/**
	 * Decodes READDIR3resok's names.
	 * @param results the reply's results
	 * @return the entries' names, and whether the listing is complete
	 */
	public static Listing readdirNames(XdrDecoder results) {
		int status = results.readInt();
		skipPostOpAttr(results);
		if (status != 0) {
			throw new NfsStatusException("READDIR", status);
		}
		results.readFixedOpaque(COOKIEVERF);
		List<String> names = new ArrayList<>();
		while (results.readBoolean()) {
			results.readHyper(); // fileid
			names.add(results.readString(255));
			results.readHyper(); // cookie
		}
		return new Listing(names, results.readBoolean());
	}

	/**
	 * A directory listing.
	 *
	 * @param names the names, in the server's order
	 * @param eof whether that was all
	 */
	public record Listing(List<String> names, boolean eof) {
	}

	/**
	 * The most a file handle may take.
	 * @return NFS3_FHSIZE
	 */
	public static int maxFileHandle() {
		return NFS3_FHSIZE;
	}

	private static void skipPostOpAttr(XdrDecoder results) {
		if (results.readBoolean()) {
			results.skip(FATTR3_SIZE);
		}
	}

	private static void skipWccData(XdrDecoder results) {
		if (results.readBoolean()) {
			results.skip(WCC_ATTR_SIZE);
		}
		skipPostOpAttr(results);
	}

	private static int padded(int length) {
		return (length + 3) & ~3;
	}

}
