package io.rpcrdma.interop;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A CDS archive (JEP 350, dynamic) of the classes a JUnit run loads, made on the host once per
 * run so that every guest JVM maps them instead of loading and verifying them one by one.
 * Under TCG that takes about a quarter off a {@link GuestTestRunner} start (15 s instead of
 * 20 s on average, C1 only; docs/interop.md).
 * <p>
 * The guest's own JDK makes it on the host, in about 2 s, by running {@link GuestTestRunner}
 * over {@link GuestRunnerSample}: its tests fail or abort here, which does not matter, since
 * the archive holds the classes loaded and is written at exit whatever the status. CDS checks
 * that the JDK and the classpath's jars are the same files at the same paths where the archive
 * is used, which is why the guest mounts the JDK and the staging directory at their host
 * paths. A guest JVM that finds the archive unusable runs without it.
 */
final class GuestClassArchive {

	private static final long TRAINING_SECONDS = 120;

	private GuestClassArchive() {
	}

	/**
	 * Makes the archive next to the staged classpath.
	 * @param jdk the guest's JDK (it must run on the host too)
	 * @param staging the staged classpath
	 * @return the archive, or nothing if the training run made none (its log says why)
	 */
	static Optional<Path> create(GuestJdk jdk, GuestStaging staging) {
		Path archive = staging.directory().resolve("classpath.jsa");
		Path log = staging.directory().resolve("classpath.jsa.log");
		try {
			Process training = new ProcessBuilder(List.of(jdk.java(), "-XX:ArchiveClassesAtExit=" + archive,
					"@" + staging.classpathArgs(), GuestTestRunner.class.getName(), GuestRunnerSample.class.getName()))
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
				.start();
			if (!training.waitFor(TRAINING_SECONDS, TimeUnit.SECONDS)) {
				training.destroyForcibly();
				return Optional.empty();
			}
			return Files.isRegularFile(archive) ? Optional.of(archive) : Optional.empty();
		}
		catch (IOException ex) {
			try {
				Files.writeString(log, "could not start the training run: " + ex);
			}
			catch (IOException ignored) {
				// the caller says there is no archive either way
			}
			return Optional.empty();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Optional.empty();
		}
	}

}
