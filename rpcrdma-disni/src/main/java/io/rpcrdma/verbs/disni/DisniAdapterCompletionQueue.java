package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCReqNotify;

/**
 * A shared completion queue on the adapter: {@code ibv_create_cq} with a completion channel
 * of its own, polled by one prebuilt {@code SVCPollCq} into a fixed {@code IbvWC} array and
 * armed by one prebuilt {@code SVCReqNotify}, so that polling allocates nothing.
 */
final class DisniAdapterCompletionQueue implements AdapterCompletionQueue {

	private static final System.Logger logger = System.getLogger(DisniAdapterCompletionQueue.class.getName());

	private final IbvCompChannel channel;

	private final IbvCQ cq;

	private final int capacity;

	private final IbvWC[] polled;

	private final SVCPollCq pollCall;

	private final SVCReqNotify notifyCall;

	private DisniAdapterCompletionQueue(IbvCompChannel channel, IbvCQ cq, int capacity, int batch) throws IOException {
		this.channel = channel;
		this.cq = cq;
		this.capacity = capacity;
		this.polled = new IbvWC[batch];
		for (int i = 0; i < batch; i++) {
			this.polled[i] = new IbvWC();
		}
		this.pollCall = cq.poll(this.polled, batch);
		this.notifyCall = cq.reqNotification(false);
	}

	/**
	 * Creates a queue of {@code entries}, or of the most the device allows below that:
	 * {@code ibv_create_cq} refuses more than the device's {@code max_cqe} (32,768 on Linux's
	 * rxe), which DiSNI 2.1 cannot query, so the size halves until the device accepts it.
	 * @param context the device
	 * @param entries the entries wanted
	 * @param vector the completion vector (interrupt) to use, spread over the device's
	 * @param batch completions per poll
	 * @return the queue; {@link #capacity()} says how large it came out
	 * @throws IOException if the device refuses even a small queue
	 */
	static DisniAdapterCompletionQueue create(IbvContext context, int entries, int vector, int batch)
			throws IOException {
		int size = entries;
		while (true) {
			IbvCompChannel channel = context.createCompChannel();
			try {
				IbvCQ cq = context.createCQ(channel, size, vector);
				try {
					return new DisniAdapterCompletionQueue(channel, cq, size, batch);
				}
				catch (IOException | RuntimeException ex) {
					cq.destroyCQ();
					throw ex;
				}
			}
			catch (IOException ex) {
				destroyQuietly(channel);
				if (size <= 256) {
					throw ex;
				}
				size /= 2;
			}
		}
	}

	private static void destroyQuietly(IbvCompChannel channel) {
		try {
			channel.destroyCompChannel();
		}
		catch (IOException ignored) {
			// the creation error is the one to report
		}
	}

	@Override
	public IbvWC[] polled() {
		return this.polled;
	}

	@Override
	public int poll() throws IOException {
		return this.pollCall.execute().getPolls();
	}

	@Override
	public void requestNotification() throws IOException {
		this.notifyCall.execute();
	}

	@Override
	public boolean awaitEvent(int millis) throws IOException {
		return this.channel.getCqEvent(this.cq, millis);
	}

	@Override
	public void acknowledge(int events) {
		if (events > 0) {
			try {
				this.cq.ackEvents(events);
			}
			catch (IOException ex) {
				logger.log(Level.WARNING, "ibv_ack_cq_events failed", ex);
			}
		}
	}

	@Override
	public void destroy() {
		this.pollCall.free();
		this.notifyCall.free();
		try {
			// DiSNI returns ibv_destroy_cq's result rather than throwing: a queue a queue pair still
			// uses (EBUSY) stays, and with it the device's verbs context, which a device removal
			// waits for (docs/hardware.md, "Device removal").
			int result = this.cq.destroyCQ();
			if (result != 0) {
				logger.log(Level.WARNING, "ibv_destroy_cq failed on a shared completion queue (" + result
						+ "); its queue pairs must be destroyed first");
			}
		}
		catch (IOException ex) {
			logger.log(Level.WARNING, "ibv_destroy_cq failed on a shared completion queue; its queue pairs must be "
					+ "destroyed first", ex);
		}
		try {
			this.channel.destroyCompChannel();
		}
		catch (IOException ex) {
			logger.log(Level.WARNING, "ibv_destroy_comp_channel failed", ex);
		}
	}

	@Override
	public int capacity() {
		return this.capacity;
	}

	@Override
	public IbvCQ ibvCq() {
		return this.cq;
	}

}
