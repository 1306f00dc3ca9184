package io.rpcrdma.client.balance;

import java.util.List;

/**
 * Where a {@link BalancedCaller} learns which server instances there are: a fixed list
 * ({@link #of(List)}), rpcbind
 * ({@link io.rpcrdma.discovery.rpcbind.RpcbindInstanceSource}), or a discovery service, which
 * plugs in by implementing these methods, pulling ({@link BalancedCaller#refresh()} re-reads
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
	 * Told when a caller ejects one of the instances listed (connection failures in a row): a
	 * source that can look again, such as rpcbind, may find the server moved to another port
	 * or gone, and tell its subscribers. Called on a call's completion path, so it must not
	 * block; by default nothing happens and the caller only probes the instance.
	 * @param instance the instance ejected
	 */
	default void ejected(ServerInstance instance) {
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
