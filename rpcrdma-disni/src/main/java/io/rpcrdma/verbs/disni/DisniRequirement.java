package io.rpcrdma.verbs.disni;

/**
 * One thing the {@code disni} provider needs on a machine, with how to get it. Detection
 * ({@link DisniDetection}) reports every missing one at once, so a first start on a new
 * machine names the whole list instead of one item per attempt.
 */
public enum DisniRequirement {

	/** DiSNI's Java classes. */
	DISNI_JAR("the DiSNI jar (com.ibm.disni:disni:2.1) on the class path",
			"depend on io.rpcrdma:rpcrdma-disni, which brings com.ibm.disni:disni:2.1, without excluding DiSNI "
					+ "(rpcrdma-disni already excludes its org.slf4j:slf4j-log4j12 and commons-cli)"),

	/** The user-space verbs and connection manager libraries libdisni links against. */
	RDMA_CORE("rdma-core's libibverbs.so.1 and librdmacm.so.1",
			"install rdma-core: apt-get install rdma-core ibverbs-providers libibverbs-dev librdmacm-dev "
					+ "(Debian/Ubuntu) or dnf install rdma-core libibverbs librdmacm rdma-core-devel (RHEL/Fedora)"),

	/** The JNI library behind DiSNI's native methods, which is not on Maven Central. */
	LIBDISNI("the libdisni JNI library (libdisni.so) on java.library.path",
			"build rpcrdma's libdisni with rpcrdma-disni-native/build.sh from the rpcrdma sources (needs gcc, make "
					+ "and a JDK; it prints the library's path), then start the JVM with -Djava.library.path=<its directory> (docs/hardware.md)"),

	/** An RDMA adapter, or a software RDMA device, known to the kernel. */
	RDMA_DEVICE("an RDMA device under /sys/class/infiniband",
			"use an InfiniBand, RoCE or iWARP NIC with its kernel driver loaded (check with 'rdma link' or "
					+ "'ibv_devices'), or create a Soft-RoCE device on an Ethernet interface: "
					+ "modprobe rdma_rxe && rdma link add rxe0 type rxe netdev eth0"),

	/** DiSNI 2.1 reads direct-buffer addresses through an internal JDK interface. */
	ADD_EXPORTS("the JVM flag --add-exports java.base/sun.nio.ch=ALL-UNNAMED",
			"add --add-exports java.base/sun.nio.ch=ALL-UNNAMED to the java command line (or to JDK_JAVA_OPTIONS); DiSNI 2.1 reads direct-buffer addresses "
					+ "through sun.nio.ch.DirectBuffer, which Java 17 does not export");

	private final String description;

	private final String remedy;

	DisniRequirement(String description, String remedy) {
		this.description = description;
		this.remedy = remedy;
	}

	/**
	 * What is needed, in words.
	 * @return the description
	 */
	public String description() {
		return this.description;
	}

	/**
	 * How to get it.
	 * @return the remedy
	 */
	public String remedy() {
		return this.remedy;
	}

}
