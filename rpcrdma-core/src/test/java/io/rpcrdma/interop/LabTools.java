package io.rpcrdma.interop;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Host programs the lab needs.
 */
final class LabTools {

	private LabTools() {
	}

	/**
	 * Finds a program, which a system property may point elsewhere (at a missing file, to
	 * force the skip).
	 * @param name the program
	 * @param property the system property that overrides its location
	 * @param debianPackage the Debian package that has it
	 * @return the program's path
	 * @throws LabUnavailableException if it is not installed
	 */
	static String require(String name, String property, String debianPackage) {
		String configured = System.getProperty(property);
		if (configured != null) {
			if (Files.isExecutable(Path.of(configured))) {
				return configured;
			}
			throw new LabUnavailableException(configured + " (-D" + property + ") is not an executable " + name);
		}
		requireOnPath(name, debianPackage);
		return name;
	}

	/**
	 * Checks that a program is installed.
	 * @param name the program
	 * @param debianPackage the Debian package that has it
	 * @throws LabUnavailableException if it is not on the PATH
	 */
	static void requireOnPath(String name, String debianPackage) {
		String path = System.getenv("PATH");
		if (path != null) {
			for (String directory : path.split(File.pathSeparator)) {
				if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, name))) {
					return;
				}
			}
		}
		throw new LabUnavailableException(name + " not found: install it with 'apt-get install -y " + debianPackage
				+ "' (.ci/run does)");
	}

}
