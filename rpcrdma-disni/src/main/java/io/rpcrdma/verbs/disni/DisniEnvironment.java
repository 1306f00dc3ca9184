package io.rpcrdma.verbs.disni;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The probes {@link DisniDetection} runs against the machine and the JVM. The real ones
 * ({@link #system()}) look at the class path, the library path and sysfs; tests pass their
 * own to simulate each missing piece. Every probe must be cheap and must not throw.
 */
public interface DisniEnvironment {

	/**
	 * The probes of this JVM on this machine.
	 * @return the system environment
	 */
	static DisniEnvironment system() {
		return SystemDisniEnvironment.INSTANCE;
	}

	/**
	 * Whether a class can be loaded, without initialising it.
	 * @param className the binary class name
	 * @return {@code true} if the class is on the class path
	 */
	boolean classPresent(String className);

	/**
	 * Loads a JNI library by its short name, as {@link System#loadLibrary(String)} does.
	 * @param name the library name without prefix and suffix, for example {@code disni}
	 * @return empty when it loaded (or was loaded already), else why it did not load
	 */
	Optional<String> loadLibrary(String name);

	/**
	 * Finds a shared library file the dynamic linker would find, for example
	 * {@code libibverbs.so.1}.
	 * @param fileName the file name
	 * @return where it is, if found
	 */
	Optional<Path> findSharedLibrary(String fileName);

	/**
	 * The RDMA devices the kernel knows, from {@code /sys/class/infiniband}.
	 * @return the device names, empty if none
	 */
	List<String> rdmaDevices();

	/**
	 * Whether {@code java.base} exports {@code sun.nio.ch} to the code that uses DiSNI
	 * (the flag {@code --add-exports java.base/sun.nio.ch=ALL-UNNAMED}).
	 * @return {@code true} if exported
	 */
	boolean sunNioChExported();

	/**
	 * The JVM's {@code java.library.path}, for messages.
	 * @return the library path
	 */
	String javaLibraryPath();

}
