package io.rpcrdma.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The host JDK the lab guest runs Java with: by default the one running the tests
 * ({@code java.home}), or {@code -Drpcrdma.lab.guest-java-home=/path/to/jdk}. The guest mounts
 * it read-only at the same absolute path, together with every directory its symbolic links
 * point into: Debian's JDKs keep their configuration in {@code /etc} ({@code conf/security/java.security}
 * is a link to {@code /etc/java-17-openjdk/security/java.security}, {@code lib/security/cacerts}
 * one to {@code /etc/ssl/certs/java/cacerts}), and those links resolve in the guest only if the
 * targets are where the host has them.
 *
 * @param home the JDK's directory (its real path)
 * @param directories the host directories to share, each at its own path in the guest: the JDK
 * and the directories its links point into, none inside another
 */
record GuestJdk(Path home, List<Path> directories) {

	/** The system property that chooses another JDK for the guest. */
	static final String PROPERTY = "rpcrdma.lab.guest-java-home";

	/**
	 * Finds the JDK for the guest and the directories its links need.
	 * @return the JDK
	 * @throws LabUnavailableException if the configured directory holds no {@code bin/java}
	 */
	static GuestJdk locate() {
		String configured = System.getProperty(PROPERTY);
		Path home = Path.of((configured != null) ? configured : System.getProperty("java.home"));
		String source = (configured != null) ? " (-D" + PROPERTY + ")" : " (java.home)";
		if (!Files.isExecutable(home.resolve("bin/java"))) {
			throw new LabUnavailableException("no JDK for the guest: " + home + source + " has no bin/java");
		}
		try {
			Path real = home.toRealPath();
			return new GuestJdk(real, directoriesToShare(real));
		}
		catch (IOException ex) {
			throw new LabUnavailableException("no JDK for the guest: cannot read " + home + source + ": "
					+ ex.getMessage(), ex);
		}
	}

	/**
	 * The JDK's {@code bin/java} as the guest sees it.
	 * @return the path
	 */
	String java() {
		return this.home.resolve("bin/java").toString();
	}

	/**
	 * The JDK's shares, named {@code jdk0}, {@code jdk1}...; none changes while the guest runs.
	 * @return the shares
	 */
	List<GuestShare> shares() {
		List<GuestShare> shares = new ArrayList<>();
		for (Path directory : this.directories) {
			shares.add(new GuestShare("jdk" + shares.size(), directory, directory.toString(), true));
		}
		return shares;
	}

	/**
	 * The JDK and the directories its links point into, followed through the links found
	 * there too; broken links are left out (Debian's {@code lib/src.zip} points to a package
	 * that is seldom installed).
	 */
	private static List<Path> directoriesToShare(Path home) throws IOException {
		TreeSet<Path> found = new TreeSet<>(List.of(home));
		Deque<Path> toWalk = new ArrayDeque<>(List.of(home));
		while (!toWalk.isEmpty()) {
			for (Path target : linkTargets(toWalk.pop())) {
				Path directory = Files.isDirectory(target) ? target : target.getParent();
				boolean covered = found.stream().anyMatch(directory::startsWith);
				if (Files.exists(target) && !covered) {
					found.add(directory);
					toWalk.push(directory);
				}
			}
		}
		// A directory inside another comes with it (TreeSet order puts parents first).
		List<Path> outermost = new ArrayList<>();
		for (Path directory : found) {
			if (outermost.stream().noneMatch(directory::startsWith)) {
				outermost.add(directory);
			}
		}
		return List.copyOf(outermost);
	}

	private static List<Path> linkTargets(Path directory) throws IOException {
		try (Stream<Path> files = Files.walk(directory)) {
			return files.filter(Files::isSymbolicLink).map(GuestJdk::target).toList();
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
	}

	private static Path target(Path link) {
		try {
			return link.getParent().resolve(Files.readSymbolicLink(link)).normalize();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
