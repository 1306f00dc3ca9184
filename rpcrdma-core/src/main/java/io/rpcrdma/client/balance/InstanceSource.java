package io.rpcrdma.client.balance;

import java.util.List;

/**
 * Where a {@link BalancedCaller} learns which server instances there are. A fixed list today
 * ({@link #of(List)}); a discovery service or rpcbind (RFC 1833 GETADDR) resolution plugs in
 * by implementing these two methods, pulling ({@link BalancedCaller#refresh()} re-reads
 * {@link #instances()}) or pushing ({@link #subscribe(Runnable)}, or an
 * {@link UpdatableInstanceSource}).
 */
public interface InstanceSource {

	/**
	 * The instances now. Called on the first call through the caller (so a source may resolve
	 * lazily, for example an application's own server once it listens) and on each refresh;
	 * it may block, and is never called on a call's completion path.
	 * @return the instances, in a stable order; ids unique
	 * @throws RuntimeException when they cannot be resolved: the call that asked fails with it
	 */
	List<ServerInstance> instances();

	/**
	 * Asks to be told when {@link #instances()} has changed. The caller then reads the new list
	 * on the thread that told it.
	 * @param onChange told of each change; cheap
	 * @return stops telling; by default the membership never changes and nothing is told
	 */
	default AutoCloseable subscribe(Runnable onChange) {
		return () -> {
		};
	}

	/**
	 * @param instances the instances, for ever
	 * @return a source listing them
	 */
	static InstanceSource of(List<ServerInstance> instances) {
		List<ServerInstance> fixed = List.copyOf(instances);
		return () -> fixed;
	}

}
