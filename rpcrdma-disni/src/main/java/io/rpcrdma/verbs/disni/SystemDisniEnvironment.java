package io.rpcrdma.verbs.disni;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The real probes: class path, library path, well-known library directories and sysfs.
 */
final class SystemDisniEnvironment implements DisniEnvironment {

	static final SystemDisniEnvironment INSTANCE = new SystemDisniEnvironment();

	/** Where DiSNI's native methods live; its static initialiser loads libdisni. */
	private static final String NATIVE_DISPATCHER = "com.ibm.disni.verbs.impl.NativeDispatcher";

	/** The DiSNI class that reads buffer addresses through sun.nio.ch. */
	private static final String MEMORY_UTILS = "com.ibm.disni.util.MemoryUtils";

	private static final Path SYS_CLASS_INFINIBAND = Path.of("/sys/class/infiniband");

	private volatile Optional<String> disniLoadResult;

	private SystemDisniEnvironment() {
	}

	@Override
	public boolean classPresent(String className) {
		return findClass(className) != null;
	}

	@Override
	public Optional<String> loadLibrary(String name) {
		// Loading is idempotent but not free; libdisni's answer cannot change in a JVM.
		if ("disni".equals(name)) {
			Optional<String> cached = this.disniLoadResult;
			if (cached == null) {
				cached = load(name);
				this.disniLoadResult = cached;
			}
			return cached;
		}
		return load(name);
	}

	private Optional<String> load(String name) {
		// A JNI library belongs to the class loader that loaded it. When DiSNI sits in
		// another loader than this class, loading it from here would make DiSNI's own
		// System.loadLibrary fail, so only look for the file then.
		Class<?> dispatcher = findClass(NATIVE_DISPATCHER);
		if (dispatcher != null && dispatcher.getClassLoader() != SystemDisniEnvironment.class.getClassLoader()) {
			String file = System.mapLibraryName(name);
			for (String directory : javaLibraryPath().split(File.pathSeparator)) {
				if (!directory.isEmpty() && Files.isRegularFile(Path.of(directory, file))) {
					return Optional.empty();
				}
			}
			return Optional.of("no " + file + " in java.library.path");
		}
		try {
			System.loadLibrary(name);
			return Optional.empty();
		}
		catch (UnsatisfiedLinkError | SecurityException ex) {
			return Optional.of(String.valueOf(ex.getMessage()));
		}
	}

	@Override
	public Optional<Path> findSharedLibrary(String fileName) {
		for (Path directory : libraryDirectories()) {
			Path candidate = directory.resolve(fileName);
			if (Files.exists(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
	}

	/**
	 * The directories the dynamic linker searches on common distributions, plus the ones
	 * the user named; cheaper and less fragile than running {@code ldconfig -p}.
	 */
	private List<Path> libraryDirectories() {
		Set<String> directories = new LinkedHashSet<>();
		String ldLibraryPath = System.getenv("LD_LIBRARY_PATH");
		if (ldLibraryPath != null) {
			directories.addAll(List.of(ldLibraryPath.split(File.pathSeparator)));
		}
		directories.addAll(List.of(javaLibraryPath().split(File.pathSeparator)));
		String multiarch = multiarch();
		if (multiarch != null) {
			directories.add("/lib/" + multiarch);
			directories.add("/usr/lib/" + multiarch);
		}
		directories.addAll(List.of("/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib", "/usr/local/lib64"));
		List<Path> paths = new ArrayList<>();
		for (String directory : directories) {
			if (!directory.isBlank()) {
				paths.add(Path.of(directory));
			}
		}
		return paths;
	}

	private static String multiarch() {
		String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
		return switch (arch) {
			case "amd64", "x86_64" -> "x86_64-linux-gnu";
			case "aarch64", "arm64" -> "aarch64-linux-gnu";
			case "ppc64le" -> "powerpc64le-linux-gnu";
			case "s390x" -> "s390x-linux-gnu";
			default -> null;
		};
	}

	@Override
	public List<String> rdmaDevices() {
		if (!Files.isDirectory(SYS_CLASS_INFINIBAND)) {
			return List.of();
		}
		try (Stream<Path> entries = Files.list(SYS_CLASS_INFINIBAND)) {
			return entries.map((p) -> p.getFileName().toString()).sorted().toList();
		}
		catch (IOException | SecurityException ex) {
			return List.of();
		}
	}

	@Override
	public boolean sunNioChExported() {
		// The export must reach the module DiSNI's classes are in (the unnamed module of
		// their loader); without DiSNI on the class path, ask for this class's module.
		Class<?> memoryUtils = findClass(MEMORY_UTILS);
		Module user = (memoryUtils != null) ? memoryUtils.getModule() : SystemDisniEnvironment.class.getModule();
		return Object.class.getModule().isExported("sun.nio.ch", user);
	}

	@Override
	public String javaLibraryPath() {
		return System.getProperty("java.library.path", "");
	}

	private static Class<?> findClass(String className) {
		ClassLoader loader = SystemDisniEnvironment.class.getClassLoader();
		try {
			return Class.forName(className, false, loader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			ClassLoader context = Thread.currentThread().getContextClassLoader();
			if (context == null || context == loader) {
				return null;
			}
			try {
				return Class.forName(className, false, context);
			}
			catch (ClassNotFoundException | LinkageError again) {
				return null;
			}
		}
	}

}
