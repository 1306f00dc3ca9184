package io.rpcrdma.verbs.disni;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A machine where exactly the given requirements are missing, as the probes would see it.
 */
record FakeEnvironment(Set<DisniRequirement> missing) implements DisniEnvironment {

	static FakeEnvironment complete() {
		return new FakeEnvironment(EnumSet.noneOf(DisniRequirement.class));
	}

	static FakeEnvironment without(DisniRequirement first, DisniRequirement... rest) {
		return new FakeEnvironment(EnumSet.of(first, rest));
	}

	static FakeEnvironment bare() {
		return new FakeEnvironment(EnumSet.allOf(DisniRequirement.class));
	}

	@Override
	public boolean classPresent(String className) {
		return !this.missing.contains(DisniRequirement.DISNI_JAR);
	}

	@Override
	public Optional<String> loadLibrary(String name) {
		return this.missing.contains(DisniRequirement.LIBDISNI)
				? Optional.of("no " + name + " in java.library.path: /usr/java/packages/lib:/usr/lib64")
				: Optional.empty();
	}

	@Override
	public Optional<Path> findSharedLibrary(String fileName) {
		return this.missing.contains(DisniRequirement.RDMA_CORE) ? Optional.empty()
				: Optional.of(Path.of("/usr/lib/x86_64-linux-gnu", fileName));
	}

	@Override
	public List<String> rdmaDevices() {
		return this.missing.contains(DisniRequirement.RDMA_DEVICE) ? List.of() : List.of("mlx5_0");
	}

	@Override
	public boolean sunNioChExported() {
		return !this.missing.contains(DisniRequirement.ADD_EXPORTS);
	}

	@Override
	public String javaLibraryPath() {
		return "/usr/java/packages/lib:/usr/lib64";
	}

}
