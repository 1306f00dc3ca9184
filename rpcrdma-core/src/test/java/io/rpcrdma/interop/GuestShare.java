package io.rpcrdma.interop;

import java.nio.file.Path;

/**
 * A host directory the lab guest sees read-only through virtio-9p ({@code -virtfs}). QEMU
 * offers it when the guest boots (a share cannot be added later without QEMU's monitor); the
 * guest mounts it when a test first needs it ({@link #mountCommand()}, run through the agent),
 * so a run that never asks for it pays nothing but a PCI device.
 *
 * @param tag the 9p mount tag
 * @param host the host directory
 * @param guestPath where the guest mounts it
 * @param unchanging whether the host leaves the directory as it is while the guest runs: the
 * guest then caches its files and directories ({@code cache=loose}), which makes a JVM start
 * from a shared JDK about three times faster under TCG; a directory the host adds files to
 * while the guest runs is read uncached, so the guest always sees the host's current files
 */
record GuestShare(String tag, Path host, String guestPath, boolean unchanging) {

	GuestShare {
		// QEMU's option syntax takes ',' as a separator, and the guest's command lines are
		// simpler without quoting trouble.
		if (!shareable(host.toString()) || !shareable(guestPath)) {
			throw new LabUnavailableException("cannot share '" + host + "' with the guest: 9p shares here take paths "
					+ "without whitespace, commas or quotes");
		}
	}

	static boolean shareable(String path) {
		return path.startsWith("/") && path.chars().noneMatch((c) -> Character.isWhitespace(c) || c == ',' || c == '\''
				|| c == '"' || c == '\\');
	}

	/**
	 * QEMU's {@code -virtfs} value: read-only, and {@code security_model=none} because the
	 * guest only reads (file ownership need not be mapped).
	 * @return the option's value
	 */
	String virtfs() {
		return "local,path=" + this.host + ",mount_tag=" + this.tag + ",security_model=none,readonly=on";
	}

	/**
	 * A guest command line that mounts the share unless it is mounted already. It refuses to
	 * mount over a directory that has files in the guest (a JDK's configuration directory whose
	 * name the guest's own packages also use, say), which would hide them.
	 * @return the command line
	 */
	String mountCommand() {
		String options = "trans=virtio,version=9p2000.L,ro" + (this.unchanging ? ",cache=loose" : "");
		return "if ! grep -q '^" + this.tag + " ' /proc/mounts; then"
				+ " if [ -n \"$(ls -A '" + this.guestPath + "' 2>/dev/null)\" ]; then"
				+ " echo 'not mounting " + this.tag + " over the guest'\\''s non-empty " + this.guestPath + "'; exit 1; fi;"
				+ " mkdir -p '" + this.guestPath + "' && mount -t 9p -o " + options + " " + this.tag + " '"
				+ this.guestPath + "'; fi";
	}

}
