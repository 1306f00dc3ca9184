package io.rpcrdma.client.balance;

import java.util.List;

/**
 * No instance of a {@link BalancedCaller} could take a call: every one was ejected or being
 * probed, was unreachable or already tried by the call, or the set was empty. Thrown at once
 * rather than after waiting, so callers see an outage in microseconds instead of a deadline
 * later; calls succeed again as soon as a probe brings an instance back. The call was not
 * sent by the attempt that found no instance (an earlier attempt may have been; see the cause).
 */
public final class NoInstanceAvailableException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient List<InstanceStats> instances;

	/**
	 * @param caller the balanced caller, as named in messages
	 * @param call what was called, such as {@code program 100003 version 3 procedure 1}
	 * @param instances each instance and its last failure
	 * @param cause the failure of the call's last attempt, or {@code null} if none was made
	 */
	public NoInstanceAvailableException(String caller, String call, List<InstanceStats> instances, Throwable cause) {
		super(message(caller, call, instances), cause);
		this.instances = List.copyOf(instances);
	}

	private static String message(String caller, String call, List<InstanceStats> instances) {
		if (instances.isEmpty()) {
			return "No instance of " + caller + " can take " + call + ": its instance source lists none; "
					+ "configure an address or check the discovery service";
		}
		StringBuilder message = new StringBuilder("No instance of ").append(caller).append(" can take ").append(call)
			.append(": ");
		for (int i = 0; i < instances.size(); i++) {
			message.append((i > 0) ? "; " : "").append(instances.get(i));
		}
		return message.append(". Calls fail at once until a probe (a NULL call) finds an instance back; "
				+ "check that the servers run and listen").toString();
	}

	/** @return each instance as it stood when the call failed */
	public List<InstanceStats> instances() {
		return this.instances;
	}

}
