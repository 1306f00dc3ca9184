package io.rpcrdma.interop;

/**
 * What a command run in the lab guest left behind.
 *
 * @param command the shell command line
 * @param exitStatus its exit status
 * @param output its standard output and standard error, merged
 */
public record GuestCommandResult(String command, int exitStatus, String output) {

	/**
	 * Whether the command succeeded.
	 * @return exit status zero
	 */
	public boolean succeeded() {
		return this.exitStatus == 0;
	}

	/**
	 * Returns this result if the command succeeded.
	 * @return this result
	 * @throws LabException if it failed, with its output
	 */
	public GuestCommandResult orThrow() {
		if (!succeeded()) {
			throw new LabException("Guest command '" + this.command + "' exited with " + this.exitStatus + ":\n"
					+ this.output);
		}
		return this;
	}

}
