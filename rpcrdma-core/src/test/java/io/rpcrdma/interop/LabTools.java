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
