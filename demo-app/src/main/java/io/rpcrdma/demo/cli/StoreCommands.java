package io.rpcrdma.demo.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

import io.rpcrdma.demo.Sizes;
import io.rpcrdma.demo.store.ObjectInfo;
import io.rpcrdma.demo.store.ObjectListing;
import io.rpcrdma.demo.store.ObjectStore;
import io.rpcrdma.demo.store.ObjectStoreService;
import io.rpcrdma.demo.store.StoreStatus;
import io.rpcrdma.service.BulkData;

/**
 * One object-store command from the command line of the client profile:
 * {@code put <key> <file>}, {@code get <key> [<file>]}, {@code stat <key>},
 * {@code list [<prefix>]}, {@code delete <key>}, {@code status}, {@code watch <prefix> [<count>]}. Results go to {@code out};
 * failures to {@code err} as one line, with an exit status ({@link ErrorMessages}).
 */
public final class StoreCommands {

	/** The usage line. */
	public static final String USAGE = "commands: put <key> <file> | get <key> [<file>] | stat <key> | list [<prefix>]"
			+ " | delete <key> | status | watch <prefix> [<count>]";

	/** How long {@code watch} waits for a change between checks that it should go on. */
	private static final java.time.Duration WATCH_POLL = java.time.Duration.ofSeconds(1);

	private final ObjectStore store;

	private final String address;

	private final PrintStream out;

	private final PrintStream err;

	private final WatchEvents watched;

	/**
	 * @param store the store, normally a client proxy
	 * @param address the store's address, for messages
	 * @param out where results go
	 * @param err where failures go
	 */
	public StoreCommands(ObjectStore store, String address, PrintStream out, PrintStream err) {
		this(store, address, out, err, null);
	}

	/**
	 * @param store the store, normally a client proxy
	 * @param address the store's address, for messages
	 * @param out where results go
	 * @param err where failures go
	 * @param watched where the store's call-backs arrive, for {@code watch}; {@code null} if
	 * this application serves none
	 */
	public StoreCommands(ObjectStore store, String address, PrintStream out, PrintStream err, WatchEvents watched) {
		this.watched = watched;
		this.store = Objects.requireNonNull(store, "store");
		this.address = address;
		this.out = out;
		this.err = err;
	}

	/**
	 * @param args the command and its arguments
	 * @return the exit status: 0 on success
	 */
	public int run(List<String> args) {
		if (args.isEmpty()) {
			return usage("No command given");
		}
		try {
			return execute(args.get(0), args.subList(1, args.size()));
		}
		catch (RuntimeException ex) {
			ErrorMessages.Described described = ErrorMessages.describe(ex, this.address);
			this.err.println("error: " + described.message());
			return described.exitStatus();
		}
	}

	private int execute(String command, List<String> args) {
		switch (command) {
			case "put" -> {
				if (args.size() != 2) {
					return usage("put takes a key and a file");
				}
				return put(args.get(0), Path.of(args.get(1)));
			}
			case "get" -> {
				if (args.isEmpty() || args.size() > 2) {
					return usage("get takes a key and optionally a file to write");
				}
				return get(args.get(0), (args.size() == 2) ? Path.of(args.get(1)) : null);
			}
			case "stat" -> {
				if (args.size() != 1) {
					return usage("stat takes a key");
				}
				this.out.println(describe(this.store.stat(args.get(0))));
				return 0;
			}
			case "list" -> {
				if (args.size() > 1) {
					return usage("list takes at most a prefix");
				}
				return list(args.isEmpty() ? "" : args.get(0));
			}
			case "delete" -> {
				if (args.size() != 1) {
					return usage("delete takes a key");
				}
				if (!this.store.delete(args.get(0))) {
					this.err.println("error: No object '" + args.get(0) + "' in the store");
					return ErrorMessages.REFUSED;
				}
				this.out.println("deleted " + args.get(0));
				return 0;
			}
			case "status" -> {
				StoreStatus status = this.store.status();
				this.out.println(status.objects() + " objects, " + Sizes.format(status.bytes()) + " of "
						+ Sizes.format(status.capacityBytes()) + "; largest object accepted "
						+ Sizes.format(status.maxObjectBytes()));
				return 0;
			}
			case "watch" -> {
				if (args.isEmpty() || args.size() > 2) {
					return usage("watch takes a prefix (\"\" for every key) and optionally how many changes to wait for");
				}
				return watch(args.get(0), (args.size() == 2) ? parseCount(args.get(1)) : Long.MAX_VALUE);
			}
			default -> {
				return usage("Unknown command '" + command + "'");
			}
		}
	}

	/**
	 * Prints the store's changes under {@code prefix} as they happen: the store calls this
	 * client back on the connection it opened (RFC 8167), so nothing listens here.
	 */
	private int watch(String prefix, long count) {
		if (this.watched == null) {
			this.err.println("error: This application serves no watcher to the store");
			return ErrorMessages.FAILED;
		}
		int now = this.store.watch(prefix);
		this.out.println("watching '" + prefix + "' at " + this.address + " (" + now + " objects now); Ctrl-C stops");
		long seen = 0;
		try {
			while (seen < count) {
				String change = this.watched.next(WATCH_POLL);
				if (change != null) {
					this.out.println(change);
					seen++;
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return 0;
	}

	private static long parseCount(String text) {
		try {
			long count = Long.parseLong(text);
			if (count > 0) {
				return count;
			}
		}
		catch (NumberFormatException ex) {
			// Said below.
		}
		throw new IllegalArgumentException("watch's count must be a positive number, got '" + text + "'");
	}

	private int put(String key, Path file) {
		long size;
		byte[] contents;
		try {
			size = Files.size(file);
			// Refuse before reading a file no store accepts: the contents' XDR bound.
			if (size > ObjectStore.MAX_OBJECT_BYTES) {
				this.err.println("error: " + file + " is " + Sizes.format(size) + ", larger than the largest object an "
						+ "object store accepts (" + Sizes.format(ObjectStore.MAX_OBJECT_BYTES) + ")");
				return ErrorMessages.REFUSED;
			}
			contents = Files.readAllBytes(file);
		}
		catch (NoSuchFileException ex) {
			this.err.println("error: No file " + file);
			return ErrorMessages.REFUSED;
		}
		catch (IOException ex) {
			this.err.println("error: Cannot read " + file + ": " + ex.getMessage());
			return ErrorMessages.REFUSED;
		}
		this.out.println("stored " + describe(this.store.put(key, BulkData.wrap(contents))));
		return 0;
	}

	private int get(String key, Path file) {
		BulkData data = this.store.get(key);
		ByteBuffer contents = data.buffer();
		if (file == null) {
			this.out.println(key + ": " + Sizes.format(data.length()) + ", CRC-32C "
					+ Long.toHexString(ObjectStoreService.crc32c(contents)));
			return 0;
		}
		try {
			Files.write(file, data.toByteArray());
		}
		catch (IOException ex) {
			this.err.println("error: Cannot write " + file + ": " + ex.getMessage());
			return ErrorMessages.REFUSED;
		}
		this.out.println("wrote " + Sizes.format(data.length()) + " to " + file);
		return 0;
	}

	private int list(String prefix) {
		String after = "";
		long count = 0;
		ObjectListing page;
		do {
			page = this.store.list(prefix, after, ObjectStore.MAX_LIST);
			for (ObjectInfo info : page.objects()) {
				this.out.println(describe(info));
				after = info.key();
				count++;
			}
		}
		while (page.truncated() && !page.objects().isEmpty());
		this.out.println(count + " objects");
		return 0;
	}

	private static String describe(ObjectInfo info) {
		return info.key() + "  " + Sizes.format(info.size()) + "  crc32c " + Long.toHexString(info.crc32c()) + "  "
				+ Instant.ofEpochMilli(info.storedAtMillis());
	}

	private int usage(String problem) {
		this.err.println("error: " + problem + "; " + USAGE);
		return ErrorMessages.REFUSED;
	}

}
