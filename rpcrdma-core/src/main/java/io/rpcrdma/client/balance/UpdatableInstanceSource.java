package io.rpcrdma.client.balance;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An {@link InstanceSource} whose list is replaced by whoever learns of a change: a discovery
 * listener, an rpcbind poller, a test. Each {@link #update(List)} tells the subscribed callers,
 * which add the new instances (opening them on first use) and drain the removed ones.
 */
public final class UpdatableInstanceSource implements InstanceSource {

	private volatile List<ServerInstance> instances;

	private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

	/**
	 * @param initial the instances to start with
	 */
	public UpdatableInstanceSource(List<ServerInstance> initial) {
		this.instances = List.copyOf(initial);
	}

	@Override
	public List<ServerInstance> instances() {
		return this.instances;
	}

	/**
	 * Replaces the instances and tells every subscriber, on this thread.
	 * @param current the instances now
	 */
	public void update(List<ServerInstance> current) {
		this.instances = List.copyOf(Objects.requireNonNull(current, "current"));
		for (Runnable listener : this.listeners) {
			listener.run();
		}
	}

	@Override
	public AutoCloseable subscribe(Runnable onChange) {
		Objects.requireNonNull(onChange, "onChange");
		this.listeners.add(onChange);
		return () -> this.listeners.remove(onChange);
	}

}
