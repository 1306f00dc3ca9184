package io.rpcrdma.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The lab guest's kernel and initramfs, built from Debian's packages by
 * {@code interop/lab/build-guest.sh} (once; later runs find it in the cache and return at
 * once).
 *
 * @param directory where the image is
 * @param kernel the kernel
 * @param initramfs the initramfs
 */
public record LabImage(Path directory, Path kernel, Path initramfs) {

	private static final String SCRIPT = "interop/lab/build-guest.sh";

	private static final long BUILD_MINUTES = 20;

	/**
	 * Builds the image, or finds it in the cache.
	 * @param logDirectory where the build's log goes
	 * @return the image
	 * @throws LabUnavailableException if the script is missing or the build fails
	 */
	static LabImage build(Path logDirectory) {
		Path script = locateScript();
		Path log = logDirectory.resolve("build-guest.log");
		try {
			Files.createDirectories(logDirectory);
			Process process = new ProcessBuilder("bash", script.toString()).redirectError(log.toFile())
				.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
				.start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
			if (!process.waitFor(BUILD_MINUTES, TimeUnit.MINUTES)) {
				process.destroyForcibly();
				throw new LabUnavailableException("building the guest image took over " + BUILD_MINUTES
						+ " minutes; see " + log);
			}
			if (process.exitValue() != 0) {
				throw new LabUnavailableException("building the guest image failed (" + lastLine(log) + "); see "
						+ log);
			}
			Path directory = Path.of(output.lines().reduce((first, second) -> second).orElse(""));
			return new LabImage(directory, directory.resolve("vmlinuz"), directory.resolve("initrd.img"));
		}
		catch (IOException ex) {
			throw new LabUnavailableException("could not run " + script + ": " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LabUnavailableException("interrupted while building the guest image", ex);
		}
	}

	private static Path locateScript() {
		for (Path directory = Path.of("").toAbsolutePath(); directory != null; directory = directory.getParent()) {
			Path candidate = directory.resolve(SCRIPT);
			if (Files.isRegularFile(candidate)) {
				return candidate;
			}
		}
		throw new LabUnavailableException(SCRIPT + " not found above " + Path.of("").toAbsolutePath());
	}

	private static String lastLine(Path log) throws IOException {
		List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
		return lines.isEmpty() ? "no output" : lines.get(lines.size() - 1);
	}

}
