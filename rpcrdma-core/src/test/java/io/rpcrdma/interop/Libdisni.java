package io.rpcrdma.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * rpcrdma's own libdisni.so, built on the host with its one command
 * ({@code rpcrdma-disni-native/build.sh}, docs/hardware.md) the first time a test asks for it in
 * a run. A machine without a compiler skips the tests that need it; a library that does not
 * compile fails them.
 */
public final class Libdisni {

	private static Path built;

	private Libdisni() {
	}

	/**
	 * Builds the library, once per run.
	 * @param workDirectory where the build's log goes
	 * @return the library file
	 * @throws LabUnavailableException if gcc or make is missing
	 * @throws LabException if the build fails
	 */
	public static synchronized Path build(Path workDirectory) {
		if (built != null) {
			return built;
		}
		LabTools.requireOnPath("gcc", "gcc");
		LabTools.requireOnPath("make", "make");
		Path script = locateScript();
		Path log = workDirectory.resolve("libdisni-build.log");
		try {
			Files.createDirectories(workDirectory);
			ProcessBuilder builder = new ProcessBuilder(List.of(script.toString())).redirectErrorStream(false)
				.redirectError(log.toFile());
			builder.environment().put("JAVA_HOME", javaHomeWithHeaders().toString());
			Process process = builder.start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
				process.destroyForcibly();
				throw new LabException("building libdisni.so failed; see " + log + ":\n" + Files.readString(log));
			}
			Path library = Path.of(output.substring(output.lastIndexOf('\n') + 1));
			if (!Files.isRegularFile(library)) {
				throw new LabException(script + " printed no library (" + output + "); see " + log);
			}
			built = library;
			return library;
		}
		catch (IOException ex) {
			throw new LabException("could not run " + script + ": " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LabException("interrupted while building libdisni.so", ex);
		}
	}

	private static Path locateScript() {
		for (Path directory = Path.of("").toAbsolutePath(); directory != null; directory = directory.getParent()) {
			Path script = directory.resolve("rpcrdma-disni-native/build.sh");
			if (Files.isExecutable(script)) {
				return script;
			}
		}
		throw new LabException("rpcrdma-disni-native/build.sh not found above " + Path.of("").toAbsolutePath());
	}

	/** The running JDK when it has jni.h (a JDK, not a JRE), else whatever javac the PATH has. */
	private static Path javaHomeWithHeaders() {
		Path home = Path.of(System.getProperty("java.home"));
		if (Files.isRegularFile(home.resolve("include/jni.h"))) {
			return home;
		}
		String environment = System.getenv("JAVA_HOME");
		if (environment != null && Files.isRegularFile(Path.of(environment, "include/jni.h"))) {
			return Path.of(environment);
		}
		throw new LabUnavailableException("no JDK with include/jni.h to build libdisni.so: set JAVA_HOME to a JDK");
	}

}
