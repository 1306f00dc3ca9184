package io.rpcrdma.oncrpc;

import java.util.Arrays;
import java.util.Objects;
import java.util.StringJoiner;

import io.rpcrdma.xdr.Xdr;

/**
 * The AUTH_SYS flavor (RFC 5531 Appendix A), the {@code authsys_parms} a UNIX client sends as
 * its credential:
 *
 * <pre>
 * struct authsys_parms {
 *     unsigned int stamp;
 *     string machinename&lt;255&gt;;
 *     unsigned int uid;
 *     unsigned int gid;
 *     unsigned int gids&lt;16&gt;;
 * };
 * </pre>
 *
 * The {@code unsigned int} fields are held as Java {@code int}s carrying the same 32 bits
 * ({@code nobody}, 4294967294, is {@code -2}); use {@link Integer#toUnsignedLong(int)} to
 * widen them. The group list is copied on construction and on access.
 *
 * @param stamp an arbitrary id the caller may generate
 * @param machineName the caller's host name, at most {@value #MAX_MACHINE_NAME_LENGTH} bytes
 * of UTF-8
 * @param uid the caller's effective user id
 * @param gid the caller's effective group id
 * @param gids the groups the caller is a member of, at most {@value #MAX_GIDS}
 */
public record AuthSys(int stamp, String machineName, int uid, int gid, int[] gids) implements OpaqueAuth {

	/** RFC 5531 Appendix A: {@code string machinename<255>}. */
	public static final int MAX_MACHINE_NAME_LENGTH = 255;

	/** RFC 5531 Appendix A: {@code unsigned int gids<16>}. */
	public static final int MAX_GIDS = 16;

	private static final int[] NO_GIDS = new int[0];

	public AuthSys {
		Objects.requireNonNull(machineName, "machineName");
		int nameLength = Utf8.encodedLength(machineName);
		if (nameLength > MAX_MACHINE_NAME_LENGTH) {
			throw new IllegalArgumentException("AUTH_SYS machinename of " + nameLength + " UTF-8 bytes exceeds the "
					+ MAX_MACHINE_NAME_LENGTH + " RFC 5531 Appendix A allows");
		}
		if (gids.length > MAX_GIDS) {
			throw new IllegalArgumentException("AUTH_SYS carries at most " + MAX_GIDS + " gids (RFC 5531 Appendix A) but "
					+ gids.length + " were given; send the primary groups only");
		}
		gids = (gids.length == 0) ? NO_GIDS : gids.clone();
	}

	/**
	 * Creates AUTH_SYS credentials with a zero stamp.
	 * @param machineName the caller's host name
	 * @param uid the effective user id
	 * @param gid the effective group id
	 * @param gids the supplementary groups, at most 16
	 * @return the credentials
	 */
	public static AuthSys of(String machineName, int uid, int gid, int... gids) {
		return new AuthSys(0, machineName, uid, gid, gids);
	}

	@Override
	public int flavor() {
		return AuthFlavor.AUTH_SYS;
	}

	/**
	 * @return a copy of the supplementary groups
	 */
	@Override
	public int[] gids() {
		return (this.gids.length == 0) ? NO_GIDS : this.gids.clone();
	}

	/**
	 * @return the number of supplementary groups
	 */
	public int gidCount() {
		return this.gids.length;
	}

	/**
	 * Returns one supplementary group without copying the list.
	 * @param index from 0 to {@link #gidCount()} - 1
	 * @return the group id
	 */
	public int gid(int index) {
		return this.gids[index];
	}

	/**
	 * @return the number of bytes of the {@code authsys_parms} body on the wire
	 */
	int bodyLength() {
		// stamp, machinename length and bytes, uid, gid, gids count and gids.
		return 4 + 4 + (int) Xdr.pad(Utf8.encodedLength(this.machineName)) + 4 + 4 + 4
				+ 4 * this.gids.length;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof AuthSys that && this.stamp == that.stamp && this.uid == that.uid
				&& this.gid == that.gid && this.machineName.equals(that.machineName)
				&& Arrays.equals(this.gids, that.gids);
	}

	@Override
	public int hashCode() {
		int hash = this.stamp;
		hash = 31 * hash + this.machineName.hashCode();
		hash = 31 * hash + this.uid;
		hash = 31 * hash + this.gid;
		return 31 * hash + Arrays.hashCode(this.gids);
	}

	@Override
	public String toString() {
		StringJoiner groups = new StringJoiner(", ", "[", "]");
		for (int g : this.gids) {
			groups.add(Integer.toUnsignedString(g));
		}
		return "AuthSys[stamp=" + Integer.toUnsignedString(this.stamp) + ", machineName=" + this.machineName + ", uid="
				+ Integer.toUnsignedString(this.uid) + ", gid=" + Integer.toUnsignedString(this.gid) + ", gids=" + groups
				+ "]";
	}

}
