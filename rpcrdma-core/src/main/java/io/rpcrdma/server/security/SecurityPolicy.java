package io.rpcrdma.server.security;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;

import io.rpcrdma.oncrpc.AuthFlavor;
import io.rpcrdma.oncrpc.AuthStat;
import io.rpcrdma.oncrpc.AuthSys;
import io.rpcrdma.oncrpc.OpaqueAuth;
import io.rpcrdma.oncrpc.ProgramNumberText;

/**
 * Which {@link SecurityFlavor}s a server accepts, for all programs, per program and per
 * procedure (the most specific rule wins), and the {@code auth_stat} a call gets otherwise
 * (RFC 5531 §9): AUTH_BADCRED for a flavor this server cannot check at all, AUTH_TOOWEAK for
 * one it can but the procedure does not accept. A refused call never reaches its handler.
 * <p>
 * A policy with rules admits only the flavors it names; {@link #permitAll()} admits every
 * call. The NULL procedure (0) of every program answers any flavor the server can check, as NFS
 * servers do: it does nothing, clients ping with it, and RFC 2203 §5.2.2 creates RPCSEC_GSS
 * contexts through it.
 * <p>
 * Immutable; {@link #admit} allocates nothing.
 */
public final class SecurityPolicy {

	/** The flavors every server can check. */
	private static final int SUPPORTED = mask(EnumSet.of(SecurityFlavor.NONE, SecurityFlavor.SYS));

	/** With an {@link RpcSecGssServer}: RPCSEC_GSS authentication, integrity and privacy. */
	private static final int SUPPORTED_WITH_GSS = SUPPORTED
			| mask(EnumSet.of(SecurityFlavor.KRB5, SecurityFlavor.KRB5I, SecurityFlavor.KRB5P));

	private static final SecurityPolicy PERMIT_ALL = new SecurityPolicy(true, null, SUPPORTED, new int[0], new int[0],
			new int[0], new int[0], new int[0]);

	/** Admits every call its checks let through: no rule was configured. */
	private final boolean open;

	/** Checks RPCSEC_GSS calls, or {@code null}: the server has no Kerberos identity. */
	private final RpcSecGssServer rpcsecGss;

	private final int supported;

	private final int byDefault;

	private final int[] programRules;

	private final int[] programMasks;

	private final int[] procedurePrograms;

	private final int[] procedureVersionsAndNumbers;

	private final int[] procedureMasks;

	private SecurityPolicy(boolean open, RpcSecGssServer rpcsecGss, int byDefault, int[] programRules, int[] programMasks, int[] procedurePrograms,
			int[] procedureVersionsAndNumbers, int[] procedureMasks) {
		this.open = open;
		this.rpcsecGss = rpcsecGss;
		this.supported = (rpcsecGss != null) ? SUPPORTED_WITH_GSS : SUPPORTED;
		this.byDefault = byDefault;
		this.programRules = programRules;
		this.programMasks = programMasks;
		this.procedurePrograms = procedurePrograms;
		this.procedureVersionsAndNumbers = procedureVersionsAndNumbers;
		this.procedureMasks = procedureMasks;
	}

	/**
	 * Every call, whatever its flavor, for every procedure: what a server did before it had a
	 * policy, and what it does unless one is configured. Flavors the server does not check
	 * (private ones, say) pass to the service's interceptors, which may refuse them with a
	 * {@link io.rpcrdma.server.CallRejectedException}; their principal is anonymous. AUTH_SYS
	 * principals are {@linkplain RpcPrincipal#verified() unverified}.
	 * @return the policy
	 */
	public static SecurityPolicy permitAll() {
		return PERMIT_ALL;
	}

	/**
	 * @return a builder; with no rule it builds {@link #permitAll()}, with any rule the flavors
	 * not named by default are {@code none} and {@code sys}
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Decides on one call.
	 * @param credential the call's credential
	 * @param program its program
	 * @param version its version
	 * @param procedure its procedure
	 * @return AUTH_OK to run it, else the status of the AUTH_ERROR reply
	 */
	public AuthStat admit(OpaqueAuth credential, int program, int version, int procedure) {
		if (this.open) {
			return AuthStat.AUTH_OK;
		}
		SecurityFlavor flavor = flavorOf(credential);
		if (flavor == null) {
			// RFC 5531 §9: a flavor the server does not implement is a bad credential.
			return AuthStat.AUTH_BADCRED;
		}
		return admit(flavor, program, version, procedure);
	}

	/**
	 * Decides on one call whose flavor is known: for RPCSEC_GSS, after the
	 * {@link #rpcsecGss() RPCSEC_GSS server} verified it and named its service.
	 * @param flavor the call's flavor
	 * @param program its program
	 * @param version its version
	 * @param procedure its procedure
	 * @return AUTH_OK to run it, else the status of the AUTH_ERROR reply
	 */
	public AuthStat admit(SecurityFlavor flavor, int program, int version, int procedure) {
		if (this.open) {
			return AuthStat.AUTH_OK;
		}
		if ((this.supported & bit(flavor)) == 0) {
			return AuthStat.AUTH_BADCRED;
		}
		if (procedure == 0) {
			return AuthStat.AUTH_OK;
		}
		return ((accepted(program, version, procedure) & bit(flavor)) != 0) ? AuthStat.AUTH_OK : AuthStat.AUTH_TOOWEAK;
	}

	/**
	 * @return whether this is {@link #permitAll()}: no rule and no RPCSEC_GSS, every call runs
	 */
	public boolean isPermitAll() {
		return this == PERMIT_ALL;
	}

	/**
	 * @return what checks RPCSEC_GSS calls, or {@code null} when this server has no Kerberos
	 * identity (such calls are then bad credentials, or pass unchecked under {@link #permitAll()})
	 */
	public RpcSecGssServer rpcsecGss() {
		return this.rpcsecGss;
	}

	/**
	 * The flavors a procedure accepts.
	 * @param program the program
	 * @param version its version
	 * @param procedure the procedure
	 * @return the flavors
	 */
	public Set<SecurityFlavor> acceptedFlavors(int program, int version, int procedure) {
		return flavors(accepted(program, version, procedure));
	}

	/**
	 * The principal of a call this policy admitted.
	 * @param credential the call's credential
	 * @return who sent it
	 */
	public static RpcPrincipal principalOf(OpaqueAuth credential) {
		if (credential instanceof AuthSys sys) {
			return new AuthSysPrincipal(sys);
		}
		return AnonymousPrincipal.INSTANCE;
	}

	private int accepted(int program, int version, int procedure) {
		int versionAndNumber = (version << 16) | (procedure & 0xFFFF);
		boolean small = (version & ~0xFFFF) == 0 && (procedure & ~0xFFFF) == 0;
		for (int i = 0; small && i < this.procedurePrograms.length; i++) {
			if (this.procedurePrograms[i] == program && this.procedureVersionsAndNumbers[i] == versionAndNumber) {
				return this.procedureMasks[i];
			}
		}
		for (int i = 0; i < this.programRules.length; i++) {
			if (this.programRules[i] == program) {
				return this.programMasks[i];
			}
		}
		return this.byDefault;
	}

	private static SecurityFlavor flavorOf(OpaqueAuth credential) {
		return switch (credential.flavor()) {
			case AuthFlavor.AUTH_NONE -> SecurityFlavor.NONE;
			case AuthFlavor.AUTH_SYS -> SecurityFlavor.SYS;
			default -> null;
		};
	}

	private static int bit(SecurityFlavor flavor) {
		return 1 << flavor.ordinal();
	}

	private static int mask(Set<SecurityFlavor> flavors) {
		int mask = 0;
		for (SecurityFlavor flavor : flavors) {
			mask |= bit(flavor);
		}
		return mask;
	}

	private static Set<SecurityFlavor> flavors(int mask) {
		EnumSet<SecurityFlavor> set = EnumSet.noneOf(SecurityFlavor.class);
		for (SecurityFlavor flavor : SecurityFlavor.values()) {
			if ((mask & bit(flavor)) != 0) {
				set.add(flavor);
			}
		}
		return set;
	}

	@Override
	public String toString() {
		StringJoiner rules = new StringJoiner(", ", "SecurityPolicy[", "]");
		rules.add("default " + flavors(this.byDefault));
		for (int i = 0; i < this.programRules.length; i++) {
			rules.add("program " + ProgramNumberText.hex(this.programRules[i]) + " " + flavors(this.programMasks[i]));
		}
		for (int i = 0; i < this.procedurePrograms.length; i++) {
			rules.add("program " + ProgramNumberText.hex(this.procedurePrograms[i]) + " version "
					+ (this.procedureVersionsAndNumbers[i] >>> 16) + " procedure "
					+ (this.procedureVersionsAndNumbers[i] & 0xFFFF) + " " + flavors(this.procedureMasks[i]));
		}
		return rules.toString();
	}

	/** Builds a {@link SecurityPolicy}; later rules for the same program or procedure replace earlier ones. */
	public static final class Builder {

		private int byDefault = SUPPORTED;

		private boolean configured;

		private RpcSecGssServer rpcsecGss;

		private final List<int[]> programs = new ArrayList<>();

		private final List<int[]> procedures = new ArrayList<>();

		private Builder() {
		}

		/**
		 * Checks RPCSEC_GSS calls with this server's Kerberos identity (RFC 2203), so that rules
		 * may name {@code krb5}. Alone, without rules, every flavor stays admitted, but an
		 * RPCSEC_GSS call must then prove its context.
		 * @param server the RPCSEC_GSS server, holding the service's keytab login
		 * @return this builder
		 */
		public Builder rpcsecGss(RpcSecGssServer server) {
			this.rpcsecGss = Objects.requireNonNull(server, "server");
			return this;
		}

		/**
		 * The flavors accepted where no program or procedure rule applies.
		 * @param flavors at least one
		 * @return this builder
		 */
		public Builder byDefault(Set<SecurityFlavor> flavors) {
			this.byDefault = checked(flavors, "by default");
			this.configured = true;
			return this;
		}

		/**
		 * The flavors a program's procedures accept, unless a procedure rule says otherwise.
		 * @param program the program number
		 * @param flavors at least one
		 * @return this builder
		 */
		public Builder program(int program, Set<SecurityFlavor> flavors) {
			int mask = checked(flavors, "for program " + ProgramNumberText.hex(program));
			this.programs.removeIf((rule) -> rule[0] == program);
			this.programs.add(new int[] { program, mask });
			this.configured = true;
			return this;
		}

		/**
		 * The flavors one procedure accepts.
		 * @param program the program number
		 * @param version the version, at most 65535
		 * @param procedure the procedure number, 1 to 65535 (NULL accepts every flavor)
		 * @param flavors at least one
		 * @return this builder
		 */
		public Builder procedure(int program, int version, int procedure, Set<SecurityFlavor> flavors) {
			if ((version & ~0xFFFF) != 0 || procedure < 1 || procedure > 0xFFFF) {
				throw new IllegalArgumentException("A procedure rule takes a version up to 65535 and a procedure from 1"
						+ " to 65535 (NULL, 0, accepts every flavor the server can check), got version "
						+ Integer.toUnsignedString(version) + " procedure " + Integer.toUnsignedString(procedure));
			}
			int mask = checked(flavors, "for program " + ProgramNumberText.hex(program) + " procedure " + procedure);
			int key = (version << 16) | procedure;
			this.procedures.removeIf((rule) -> rule[0] == program && rule[1] == key);
			this.procedures.add(new int[] { program, key, mask });
			this.configured = true;
			return this;
		}

		/** @return the policy */
		public SecurityPolicy build() {
			int[] programRules = new int[this.programs.size()];
			int[] programMasks = new int[programRules.length];
			for (int i = 0; i < programRules.length; i++) {
				programRules[i] = this.programs.get(i)[0];
				programMasks[i] = this.programs.get(i)[1];
			}
			int[] procedurePrograms = new int[this.procedures.size()];
			int[] keys = new int[procedurePrograms.length];
			int[] masks = new int[procedurePrograms.length];
			for (int i = 0; i < procedurePrograms.length; i++) {
				procedurePrograms[i] = this.procedures.get(i)[0];
				keys[i] = this.procedures.get(i)[1];
				masks[i] = this.procedures.get(i)[2];
			}
			if (!this.configured && this.rpcsecGss == null) {
				return PERMIT_ALL;
			}
			int supported = (this.rpcsecGss != null) ? SUPPORTED_WITH_GSS : SUPPORTED;
			supported(this.byDefault, supported, "by default");
			for (int[] rule : this.programs) {
				supported(rule[1], supported, "for program " + ProgramNumberText.hex(rule[0]));
			}
			for (int[] rule : this.procedures) {
				supported(rule[2], supported, "for program " + ProgramNumberText.hex(rule[0]) + " procedure "
						+ (rule[1] & 0xFFFF));
			}
			return new SecurityPolicy(!this.configured, this.rpcsecGss, this.configured ? this.byDefault : supported,
					programRules, programMasks, procedurePrograms, keys, masks);
		}

		private static int checked(Set<SecurityFlavor> flavors, String where) {
			Objects.requireNonNull(flavors, "flavors");
			if (flavors.isEmpty()) {
				throw new IllegalArgumentException("No security flavor accepted " + where
						+ ": name at least one of none, sys, krb5, krb5i, krb5p");
			}
			// Whether the server can check them is known once build() knows about RPCSEC_GSS.
			return mask(flavors);
		}

		private static void supported(int mask, int supported, String where) {
			int unsupported = mask & ~supported;
			if (unsupported != 0) {
				throw new UnsupportedSecurityFlavorException(flavors(unsupported), where);
			}
		}

	}

	@Override
	public boolean equals(Object other) {
		return other instanceof SecurityPolicy that && this.open == that.open && this.rpcsecGss == that.rpcsecGss
				&& this.byDefault == that.byDefault
				&& Arrays.equals(this.programRules, that.programRules) && Arrays.equals(this.programMasks, that.programMasks)
				&& Arrays.equals(this.procedurePrograms, that.procedurePrograms)
				&& Arrays.equals(this.procedureVersionsAndNumbers, that.procedureVersionsAndNumbers)
				&& Arrays.equals(this.procedureMasks, that.procedureMasks);
	}

	@Override
	public int hashCode() {
		return 31 * this.byDefault + Arrays.hashCode(this.programRules) + Arrays.hashCode(this.procedureMasks);
	}

}
