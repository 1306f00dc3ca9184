package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaEventChannel;

/**
 * The provider's rdma_cm event channel and the thread that reads it, handing each event to
 * the listener, request or connection its cm id belongs to.
 * <p>
 * DiSNI's event channel keeps its cm ids in an unsynchronised map that both
 * {@code createId} and {@code getCmEvent} touch, so both run under one fair lock; the
 * event thread waits at most {@code cmPollMillis} per call and the lock goes to a waiting
 * creator first. Event handlers must not block: they run native calls that return at
 * once and hand everything else to the provider's event executor.
 */
final class DisniConnectionManager {

	private static final System.Logger logger = System.getLogger(DisniConnectionManager.class.getName());

	/**
	 * What receives the events of one cm id.
	 */
	interface Target {

		/**
		 * An event for this target's cm id.
		 * @param event the event type ({@link CmEvents})
		 */
		void onCmEvent(int event);

	}

	/**
	 * What receives connection requests of a listening cm id.
	 */
	interface ListeningTarget extends Target {

		/**
		 * A connection request arrived.
		 * @param requestId the new cm id of the request
		 */
		void onConnectRequest(RdmaCmId requestId);

	}

	private final RdmaEventChannel channel;

	private final ReentrantLock channelLock = new ReentrantLock(true);

	private final Map<RdmaCmId, Target> targets = new ConcurrentHashMap<>();

	private final int pollMillis;

	private final Thread thread;

	private final Runnable deviceRemoval;

	private volatile boolean running = true;

	DisniConnectionManager(DisniProvider provider, RdmaEventChannel channel, int pollMillis) {
		this.channel = channel;
		this.deviceRemoval = provider::deviceRemoved;
		this.pollMillis = pollMillis;
		this.thread = provider.newThread("cm", this::run);
	}

	void start() {
		this.thread.start();
	}

	/**
	 * Creates a cm id on this channel (rdma_create_id with RDMA_PS_TCP).
	 * @return the id
	 * @throws IOException if librdmacm refuses
	 */
	RdmaCmId createId() throws IOException {
		this.channelLock.lock();
		try {
			RdmaCmId id = this.channel.createId(RdmaCm.RDMA_PS_TCP);
			if (id == null) {
				throw new IOException("rdma_create_id failed");
			}
			return id;
		}
		finally {
			this.channelLock.unlock();
		}
	}

	void register(RdmaCmId id, Target target) {
		this.targets.put(id, target);
	}

	void unregister(RdmaCmId id) {
		this.targets.remove(id);
	}

	/**
	 * Unregisters and destroys a cm id, ignoring failures (it is being abandoned anyway).
	 * Destroying the id of an unanswered connection request makes the connection manager
	 * reject it, which is how this provider rejects when libdisni lacks rpcrdma's
	 * {@code rdma_reject} ({@link DisniCmExtensions}).
	 * @param id the id, or {@code null}
	 */
	void destroy(RdmaCmId id) {
		if (id == null) {
			return;
		}
		unregister(id);
		try {
			id.destroyId();
		}
		catch (IOException | RuntimeException ex) {
			logger.log(Level.DEBUG, "rdma_destroy_id failed", ex);
		}
	}

	private void run() {
		while (this.running) {
			RdmaCmEvent event = null;
			boolean failed = false;
			this.channelLock.lock();
			try {
				event = this.channel.getCmEvent(this.pollMillis);
			}
			catch (IOException | RuntimeException ex) {
				if (!this.running) {
					return;
				}
				// One bad event must not stop connection handling for the whole provider.
				logger.log(Level.ERROR, "Reading the rdma_cm event channel failed", ex);
				failed = true;
			}
			finally {
				this.channelLock.unlock();
			}
			if (failed) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(this.pollMillis));
			}
			else if (event != null) {
				try {
					dispatch(event.getEvent(), event.getListenIdPriv(), event.getConnIdPriv());
				}
				catch (Throwable ex) {
					logger.log(Level.ERROR, "Handling " + CmEvents.name(event.getEvent()) + " failed", ex);
				}
			}
		}
	}

	private void dispatch(int type, RdmaCmId listenId, RdmaCmId connId) {
		if (type == CmEvents.CONNECT_REQUEST) {
			Target target = (listenId != null) ? this.targets.get(listenId) : null;
			if (target instanceof ListeningTarget listener && connId != null) {
				listener.onConnectRequest(connId);
			}
			else {
				// Nobody listens any more: destroying the request's id rejects it.
				destroy(connId);
			}
			return;
		}
		Target target = (connId != null) ? this.targets.get(connId) : null;
		if (target == null && listenId != null) {
			target = this.targets.get(listenId);
		}
		if (target != null) {
			target.onCmEvent(type);
		}
		else if (type != CmEvents.DEVICE_REMOVAL) {
			logger.log(Level.DEBUG, () -> CmEvents.name(type) + " for a cm id that is no longer in use");
		}
		if (type == CmEvents.DEVICE_REMOVAL) {
			// Delivered on every id of the device, the provider's anchor id too, which no target
			// holds: the provider's one device is going away (DisniProvider#deviceRemoved).
			this.deviceRemoval.run();
		}
	}

	/**
	 * Stops the event thread and destroys the channel; the provider destroyed every cm id
	 * before.
	 */
	void close() {
		this.running = false;
		if (this.thread != Thread.currentThread()) {
			try {
				this.thread.join(10L * this.pollMillis + 1000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.channelLock.lock();
		try {
			this.channel.destroyEventChannel();
		}
		catch (IOException | RuntimeException ex) {
			logger.log(Level.WARNING, "rdma_destroy_event_channel failed", ex);
		}
		finally {
			this.channelLock.unlock();
		}
	}

}
