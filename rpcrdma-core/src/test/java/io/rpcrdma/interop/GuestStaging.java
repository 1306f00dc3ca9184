package io.rpcrdma.interop;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * The host directory shared with the guest, at the same path there as here: the test JVM's
 * classpath, staged once per run, and whatever else a test shares. One share then serves every
 * jar of the local Maven repository without exposing the repository itself.
 * <p>
 * Jars are hard-linked where the host allows it (same filesystem), copied otherwise. Class
 * directories ({@code target/classes}, {@code target/test-classes}) are packed into
 * uncompressed jars: a class loader looks every class up in each directory before the jars
 * behind it, and over 9p each miss is a round trip to QEMU (a JUnit start took a third longer
 * with directories); CDS archives, too, take classes from jars only ({@link GuestClassArchive}).
 * <p>
 * Layout: {@code classpath/NNN-<name>.jar} for each classpath entry (numbered, so that two
 * jars of the same name stay apart and the order is kept), {@code classpath.args} (a
 * {@code java} argument file, {@code -cp ...}), {@code extra/NNN...} for what tests share.
 */
final class GuestStaging {

	/** The 9p tag of the staging directory. */
	static final String TAG = "labjava";

	private final Path directory;

	private int extras;

	private int linked;

	private int copied;

	private int packed;

	private GuestStaging(Path directory) {
		this.directory = directory;
	}

	/**
	 * Creates the staging directory, or empties the one a previous run left (before QEMU
	 * starts: the guest must not see a half-emptied directory).
	 * @param directory the staging directory
	 * @return the staging
	 */
	static GuestStaging emptied(Path directory) {
		try {
			Files.createDirectories(directory);
			try (Stream<Path> children = Files.list(directory)) {
				for (Path child : children.toList()) {
					delete(child);
				}
			}
			return new GuestStaging(directory);
		}
		catch (IOException ex) {
			throw new LabUnavailableException("cannot prepare " + directory + " for the guest: " + ex.getMessage(), ex);
		}
	}

	/**
	 * The staging directory of a guest that was booted with it (its contents are kept).
	 * @param directory the staging directory
	 * @return the staging
	 */
	static GuestStaging existing(Path directory) {
		return new GuestStaging(directory);
	}

	/**
	 * The share that brings the staging directory to the guest, at the same path. It is read
	 * uncached, because tests add files to it while the guest runs.
	 * @return the share
	 */
	GuestShare share() {
		return new GuestShare(TAG, this.directory, this.directory.toString(), false);
	}

	Path directory() {
		return this.directory;
	}

	/**
	 * The {@code java} argument file holding the staged {@code -cp}.
	 * @return its path (the same in the guest)
	 */
	Path classpathArgs() {
		return this.directory.resolve("classpath.args");
	}

	/**
	 * Stages classpath entries (jars and class directories) and writes the argument file.
	 * @param entries the host classpath, in order; missing entries are left out as the JVM
	 * would ignore them
	 * @return the staged classpath, valid on the host and in the guest
	 */
	synchronized String stageClasspath(List<Path> entries) {
		List<String> staged = new ArrayList<>();
		try {
			for (Path entry : entries) {
				if (Files.exists(entry)) {
					String name = String.format("%03d-%s", staged.size(), safeName(entry));
					Path target = this.directory.resolve("classpath").resolve(name.endsWith(".jar") ? name : name + ".jar");
					Files.createDirectories(target.getParent());
					if (Files.isDirectory(entry)) {
						pack(entry, target);
					}
					else {
						linkOrCopy(entry, target);
					}
					staged.add(target.toString());
				}
			}
			String classpath = String.join(File.pathSeparator, staged);
			Files.writeString(classpathArgs(), "-cp " + classpath + "\n", StandardCharsets.UTF_8);
			return classpath;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not stage the classpath for the guest in " + this.directory, ex);
		}
	}

	/**
	 * Stages a file or a directory (its files hard-linked or copied) under {@code extra/}.
	 * @param source the host file or directory
	 * @return its path, the same in the guest: {@code extra/NNN-<name>} for a directory,
	 * {@code extra/NNN/<name>} for a file (which keeps its name, as a JNI library must)
	 */
	synchronized Path stageExtra(Path source) {
		if (!Files.exists(source)) {
			throw new IllegalArgumentException(source + " does not exist");
		}
		int number = this.extras++;
		Path target = this.directory.resolve(Files.isDirectory(source)
				? String.format("extra/%03d-%s", number, safeName(source))
				: String.format("extra/%03d/%s", number, safeName(source)));
		try (Stream<Path> files = Files.walk(source)) {
			for (Path file : files.toList()) {
				Path destination = target.resolve(source.relativize(file).toString());
				if (Files.isDirectory(file)) {
					Files.createDirectories(destination);
				}
				else {
					Files.createDirectories(destination.getParent());
					linkOrCopy(file, destination);
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not stage " + source + " for the guest", ex);
		}
		return target;
	}

	/**
	 * What staging did so far, for the log.
	 * @return for example {@code "19 jars linked, 0 copied, 2 class directories packed"}
	 */
	synchronized String counts() {
		return this.linked + " files linked, " + this.copied + " copied, " + this.packed + " class directories packed";
	}

	/** An uncompressed jar of a class directory, entries in a stable order. */
	private void pack(Path classes, Path jar) throws IOException {
		List<Path> files;
		try (Stream<Path> walk = Files.walk(classes)) {
			files = walk.filter((file) -> !file.equals(classes)).sorted().toList();
		}
		try (OutputStream out = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(out)) {
			for (Path file : files) {
				String name = classes.relativize(file).toString().replace(File.separatorChar, '/');
				boolean directory = Files.isDirectory(file);
				byte[] content = directory ? new byte[0] : Files.readAllBytes(file);
				ZipEntry entry = new ZipEntry(directory ? name + "/" : name);
				CRC32 crc = new CRC32();
				crc.update(content);
				entry.setMethod(ZipEntry.STORED);
				entry.setSize(content.length);
				entry.setCompressedSize(content.length);
				entry.setCrc(crc.getValue());
				entry.setLastModifiedTime(FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis()));
				zip.putNextEntry(entry);
				zip.write(content);
				zip.closeEntry();
			}
		}
		this.packed++;
	}

	private void linkOrCopy(Path file, Path destination) throws IOException {
		try {
			Files.createLink(destination, file);
			this.linked++;
		}
		catch (FileSystemException | UnsupportedOperationException ex) {
			// Another filesystem (EXDEV) or one without hard links: a copy serves the same.
			Files.copy(file, destination, StandardCopyOption.COPY_ATTRIBUTES);
			this.copied++;
		}
	}

	private static String safeName(Path path) {
		Path name = path.getFileName();
		return (name != null) ? name.toString().replaceAll("[^A-Za-z0-9._-]", "_") : "root";
	}

	private static void delete(Path path) throws IOException {
		try (Stream<Path> files = Files.walk(path)) {
			for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
				Files.delete(file);
			}
		}
	}

	/**
	 * The test JVM's classpath: surefire's test classpath ({@code surefire.test.class.path};
	 * {@code java.class.path} is its booter jar there), else {@code java.class.path}.
	 * @return the entries
	 */
	static List<Path> testClasspath() {
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		return Stream.of(classpath.split(File.pathSeparator)).filter((entry) -> !entry.isBlank()).map(Path::of).toList();
	}

}
