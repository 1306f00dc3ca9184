package io.rpcrdma.discovery.rpcbind;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * One rpcbind mapping, the {@code rpcb} structure of RFC 1833 §2.2.1: a program version, the
 * transport it is reached over and where.
 *
 * <pre>
 * struct rpcb {
 *     unsigned long r_prog;    // program number
 *     unsigned long r_vers;    // version number
 *     string r_netid&lt;&gt;;       // network id
 *     string r_addr&lt;&gt;;        // universal address
 *     string r_owner&lt;&gt;;       // owner of this service
 * };
 * </pre>
 *
 * RFC 1833 leaves the strings unbounded; this client bounds them (a receiver must, before
 * allocating from a peer's length), at sizes well beyond anything rpcbind stores. The
 * {@code unsigned long} fields are 32 bits on the wire (XDR has no other) and are held as
 * their bits.
 *
 * @param program the program number
 * @param version the program version
 * @param netid the transport, e.g. {@code rdma}, {@code tcp6}; empty in an UNSET means all
 * @param address the universal address; empty in a query and an UNSET
 * @param owner who registered it; rpcbind records its own idea of the owner for calls over
 * the network ({@code unknown}, or {@code superuser} over its local socket)
 */
public record RpcbindMapping(int program, int version, String netid, String address, String owner) {

	/** The longest netid this client sends or accepts, in bytes. */
	public static final int MAX_NETID_LENGTH = 128;

	/** The longest universal address this client sends or accepts, in bytes. */
	public static final int MAX_ADDRESS_LENGTH = 256;

	/** The longest owner this client sends or accepts, in bytes. */
	public static final int MAX_OWNER_LENGTH = 256;

	public RpcbindMapping {
		check("netid", netid, MAX_NETID_LENGTH);
		check("address", address, MAX_ADDRESS_LENGTH);
		check("owner", owner, MAX_OWNER_LENGTH);
	}

	/**
	 * The mapping a server registers for one program version at one address.
	 * @param program the program number
	 * @param version the program version
	 * @param address where the server listens
	 * @param owner the owner string to send
	 * @return the mapping, under the RDMA netid of the address's family (RFC 5666 §12)
	 */
	public static RpcbindMapping rdma(int program, int version, UniversalAddress address, String owner) {
		return new RpcbindMapping(program, version, address.rdmaNetid().netid(), address.format(), owner);
	}

	/** @return the program number as the unsigned value rpcinfo shows */
	public long unsignedProgram() {
		return Integer.toUnsignedLong(this.program);
	}

	/** @return the version as the unsigned value rpcinfo shows */
	public long unsignedVersion() {
		return Integer.toUnsignedLong(this.version);
	}

	/** @return the universal address, parsed */
	public UniversalAddress universalAddress() {
		return UniversalAddress.parse(this.address);
	}

	@Override
	public String toString() {
		return "program " + ProgramNumberText.hex(this.program) + " version " + unsignedVersion() + " netid " + this.netid + " at '"
				+ UniversalAddress.printable(this.address) + "' (owner '" + UniversalAddress.printable(this.owner) + "')";
	}

	private static void check(String what, String value, int max) {
		Objects.requireNonNull(value, what);
		int length = value.getBytes(StandardCharsets.UTF_8).length;
		if (length > max) {
			throw new IllegalArgumentException("rpcbind " + what + " of " + length + " UTF-8 bytes exceeds the " + max
					+ " this client sends");
		}
	}

}
