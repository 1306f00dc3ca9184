package io.rpcrdma.verbs.disni;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.SVCPostRecv;
import com.ibm.disni.verbs.SVCPostSend;
import com.ibm.disni.verbs.impl.NatIbvQP;

import io.rpcrdma.verbs.CompletionOpcode;
import io.rpcrdma.verbs.InvalidWorkRequestException;
import io.rpcrdma.verbs.QueuePair;
import io.rpcrdma.verbs.QueuePairAttributes;
import io.rpcrdma.verbs.QueuePairState;
import io.rpcrdma.verbs.RdmaException;
import io.rpcrdma.verbs.ReceiveWorkRequest;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendOpcode;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.WorkCompletion;
import io.rpcrdma.verbs.support.PostingChecks;

/**
 * A reliable connected queue pair. The SPI creates queue pairs before connecting, but
 * rdma_cm creates the adapter's queue pair on the connection's {@code rdma_cm_id}
 * ({@code rdma_create_qp}), which exists only once the route is resolved or the request
 * arrived. So this object exists first: receives posted in {@code INIT} are recorded and
 * handed to the adapter right after {@code rdma_create_qp}, before {@code rdma_connect}
 * or {@code rdma_accept}, which is when verbs needs them.
 * <p>
 * Posting uses prebuilt stateful verb calls, rewritten in place (as DaRPC does): one
 * {@code SVCPostSend} per opcode and SGE count, one {@code SVCPostRecv} per receive work
 * request the caller reposts. So the data path allocates nothing and crosses JNI once per
 * work request. Receives are meant to be reposted as soon as their completion is handled
 * (DiSNI issue 37): a Send that finds none waits for receiver-not-ready retries, then
 * fails the connection.
 */
final class DisniQueuePair implements QueuePair, CompletionDispatcher.Route, SharedCompletionQueue.Member {

	private static final System.Logger logger = System.getLogger(DisniQueuePair.class.getName());

	/** The most SGEs libdisni 2.1 creates queue pairs with ({@code MAX_SGE} in its sources). */
	static final int MAX_SGES = 4;

	/**
	 * Memory-window work requests (binds and local invalidations) a queue pair may have in
	 * flight per receive it holds: a call in flight holds a receive of its requester's for the
	 * reply and advertises at most a few chunks, each bound before and invalidated after it.
	 */
	static final int WINDOW_WORK_PER_RECEIVE = 2;

	/** Told the outcome of a completion the provider handled itself (window work). */
	private static final CompletionDispatcher.Sink HANDLED = () -> {
	};

	private final DisniProvider provider;

	private final QueuePairAttributes attributes;

	private final int index;

	private final PostingChecks checks;

	private final DisniProtectionDomain pd;

	private final DisniCompletionQueue sendCq;

	private final DisniCompletionQueue recvCq;

	/** The adapter completion queue both of its queues use, shared with other queue pairs. */
	private final SharedCompletionQueue share;

	/** The entries it reserved on {@link #share}: its send and receive depths. */
	private final int reservedEntries;

	private final int maxInlineData;

	/** The send-queue entries kept for memory-window work, 0 without windows. */
	private final int windowDepth;

	/**
	 * The regions whose windows are bound to this queue pair (guarded by the send lock): their
	 * windows are killed before the adapter's queue pair is destroyed, which would otherwise
	 * wait for the bound windows' hold on it (Soft-RoCE warns and stalls).
	 */
	private final Map<DisniMemoryRegion, Boolean> boundWindows = new IdentityHashMap<>(4);

	private final Object stateLock = new Object();

	private final Object sendLock = new Object();

	private final Object recvLock = new Object();

	private final SendQueueRecords sends;

	private final ReceiveQueueRecords receives;

	private final SVCPostSend[] sendCalls = new SVCPostSend[SendOpcode.values().length * (MAX_SGES + 1)];

	private final Map<ReceiveWorkRequest, ReceiveCall> receiveCalls = new IdentityHashMap<>();

	private final int receiveCallLimit;

	private volatile QueuePairState state = QueuePairState.INIT;

	private volatile boolean closing;

	private volatile String errorDetail = "the queue pair is in error";

	private volatile IbvQP adapterQp;

	private volatile RdmaCmId cmId;

	private volatile DisniConnection connection;

	/**
	 * A prebuilt receive call with the lkeys it was built with: re-registration changes a
	 * region's lkey, and a call posting a stale one would fail with a protection error.
	 */
	private record ReceiveCall(SVCPostRecv call, int[] lkeys) {

		boolean matches(List<ScatterGatherEntry> entries) {
			int n = 0;
			for (int i = 0; i < entries.size(); i++) {
				ScatterGatherEntry entry = entries.get(i);
				if (entry.length() > 0) {
					if (n >= this.lkeys.length || this.lkeys[n++] != entry.region().lkey()) {
						return false;
					}
				}
			}
			return n == this.lkeys.length;
		}

	}

	DisniQueuePair(DisniProvider provider, QueuePairAttributes attributes, int index) {
		this.provider = provider;
		this.attributes = attributes;
		this.index = index;
		this.pd = (DisniProtectionDomain) attributes.protectionDomain();
		this.sendCq = (DisniCompletionQueue) attributes.sendCompletionQueue();
		this.recvCq = (DisniCompletionQueue) attributes.receiveCompletionQueue();
		this.maxInlineData = provider.settings().maxInlineData();
		this.windowDepth = windowDepth(attributes.maxReceiveWorkRequests(), provider.windows().available());
		this.sends = new SendQueueRecords(attributes.maxSendWorkRequests(), this.windowDepth);
		this.receives = new ReceiveQueueRecords(attributes.maxReceiveWorkRequests());
		this.receiveCallLimit = 4 * attributes.maxReceiveWorkRequests();
		this.checks = new PostingChecks(index, attributes, " (at most " + MAX_SGES + " on this provider)",
				" (a signaled completion also retires the unsignaled work requests before it)");
		// Last: the reservation is given back by close(), and refused when no shared queue has room.
		this.reservedEntries = reservedEntries(attributes.maxSendWorkRequests(), attributes.maxReceiveWorkRequests(),
				provider.windows().available());
		this.share = provider.sharedQueues().reserve(this.reservedEntries, this);
	}

	/**
	 * The send-queue entries kept for the provider's own memory-window work.
	 * @param receiveDepth the receive queue depth
	 * @param windows whether advertised regions are offered through memory windows
	 * @return the entries, 0 without windows
	 */
	static int windowDepth(int receiveDepth, boolean windows) {
		return windows ? WINDOW_WORK_PER_RECEIVE * receiveDepth : 0;
	}

	/**
	 * The entries a queue pair reserves on a shared completion queue: everything it can have
	 * outstanding, the caller's sends, the provider's window work and the receives.
	 * @param sendDepth the send queue depth asked for
	 * @param receiveDepth the receive queue depth asked for
	 * @param windows whether advertised regions are offered through memory windows
	 * @return the entries
	 */
	static int reservedEntries(int sendDepth, int receiveDepth, boolean windows) {
		return sendDepth + windowDepth(receiveDepth, windows) + receiveDepth;
	}

	int index() {
		return this.index;
	}

	DisniProvider provider() {
		return this.provider;
	}

	/**
	 * The SPI queue pair number: the provider's own, because the adapter's exists only once
	 * connected; {@link #adapterQueuePairNumber()} gives the adapter's.
	 */
	@Override
	public int queuePairNumber() {
		return this.index;
	}

	/**
	 * The adapter's queue pair number, for correlating with adapter tools.
	 * @return the number, or -1 before the queue pair reached the adapter
	 */
	int adapterQueuePairNumber() {
		IbvQP qp = this.adapterQp;
		try {
			return (qp != null) ? qp.getQp_num() : -1;
		}
		catch (IOException ex) {
			return -1;
		}
	}

	@Override
	public QueuePairAttributes attributes() {
		return this.attributes;
	}

	@Override
	public QueuePairState state() {
		return this.state;
	}

	// ---- posting ----------------------------------------------------------------------

	@Override
	public void postSend(SendWorkRequest workRequest) {
		this.checks.checkSendSges(workRequest);
		this.checks.checkSendable(this.state);
		long total = workRequest.totalLength();
		if (total > Integer.MAX_VALUE) {
			throw new InvalidWorkRequestException("Send work request " + workRequest.wrId() + " carries " + total
					+ " bytes, more than the 2^31-1 a verbs message can; split it");
		}
		boolean flushNow = false;
		synchronized (this.sendLock) {
			if (this.closing || this.state == QueuePairState.CLOSED) {
				throw this.checks.closed();
			}
			if (this.sends.isFull()) {
				throw this.checks.sendQueueFull(this.sends.capacity());
			}
			int slot = this.sends.add(workRequest.wrId(), workRequest.opcode(), (int) total, workRequest.signaled());
			IbvQP qp = this.adapterQp;
			// Work posted to a queue pair in error is flushed here: Linux's siw leaves what user
			// space posts after the error in its shared queue, never completed.
			if (qp == null || this.state == QueuePairState.ERROR) {
				this.sends.removeNewest();
				flushNow = true;
			}
			else {
				try {
					postToAdapter(qp, workRequest, slot);
				}
				catch (IOException ex) {
					this.sends.removeNewest();
					if (this.state != QueuePairState.ERROR) {
						throw postFailure("ibv_post_send", workRequest.wrId(), ex);
					}
					flushNow = true;
				}
			}
		}
		if (flushNow) {
			// The adapter no longer takes work (the connection failed): verbs flushes it.
			this.sendCq.addProviderCompletions(List.of(DisniCompletionQueue.flushed(workRequest.wrId(),
					CompletionOpcode.of(workRequest.opcode()), this.index, this.errorDetail)));
		}
	}

	private void postToAdapter(IbvQP qp, SendWorkRequest workRequest, int slot) throws IOException {
		long wrId = WorkRequestIds.send(this.index, slot);
		if (workRequest.opcode() == SendOpcode.SEND_WITH_INVALIDATE) {
			// A prebuilt call cannot change invalidate_rkey (DiSNI exposes no setter), so this
			// one is built for the occasion.
			SVCPostSend call = qp.postSend(
					List.of(DisniWorkRequests.sendWorkRequest(workRequest, wrId, this.maxInlineData)), null);
			try {
				call.execute();
			}
			finally {
				call.free();
			}
			return;
		}
		int key = workRequest.opcode().ordinal() * (MAX_SGES + 1)
				+ DisniWorkRequests.adapterSgeCount(workRequest.sgList());
		SVCPostSend call = this.sendCalls[key];
		if (call == null) {
			call = qp.postSend(List.of(DisniWorkRequests.sendWorkRequest(workRequest, wrId, this.maxInlineData)), null);
			this.sendCalls[key] = call;
		}
		else {
			DisniWorkRequests.rewrite(call.getWrMod(0), workRequest, wrId, this.maxInlineData);
		}
		call.execute();
	}

	/**
	 * Posts the bind of a type 2 memory window to this queue pair (the provider's own work
	 * request, signaled and completed here): once the adapter executes it, the window reaches
	 * the region's bytes under {@code rkey}, through this queue pair only. Work posted after it
	 * (the Send that advertises the rkey) executes after it.
	 * @param window the window's handle
	 * @param rkey the rkey to bind it under
	 * @param mr the region's handle
	 * @param address the region's first byte
	 * @param length the region's length
	 * @param access the remote access bits
	 * @throws RdmaException if the queue pair is not connected or refuses the work request
	 */
	void bindWindow(DisniMemoryRegion region, long window, int rkey, long mr, long address, int length, int access) {
		synchronized (this.sendLock) {
			IbvQP qp = this.adapterQp;
			if (this.closing || this.state != QueuePairState.RTS || qp == null) {
				throw new RdmaException("Cannot offer memory to queue pair " + this.index + ": it is not connected ("
						+ this.state + "); advertise chunks only on a connected queue pair");
			}
			if (this.sends.isWindowWorkFull()) {
				throw new RdmaException("Queue pair " + this.index + " has " + this.windowDepth + " memory-window work "
						+ "requests in flight, all it may: their completions are not coming (is a completion handler "
						+ "blocking the provider's completion thread?)");
			}
			int slot = this.sends.addWindowWork(WindowWork.NONE);
			try {
				WindowNatives.bind(handle(qp), WorkRequestIds.send(this.index, slot), window, rkey, mr, address, length,
						access);
				this.boundWindows.put(region, Boolean.TRUE);
			}
			catch (IOException ex) {
				this.sends.removeNewest();
				throw new RdmaException("ibv_post_send refused the bind of a memory window on queue pair " + this.index
						+ " (" + DisniProtectionDomain.describe(ex) + ")", ex);
			}
		}
	}

	/**
	 * Posts the local invalidation of a window bound to this queue pair; {@code done} is told
	 * on the completion thread once no peer reaches the window any more.
	 * @param rkey the window's rkey
	 * @param done told the outcome
	 * @return {@code false} if the queue pair takes no more work (not connected, in error,
	 * closing, or its window share used up): {@code done} is not told, and the caller must
	 * kill the window otherwise
	 */
	boolean invalidateWindow(int rkey, WindowWork done) {
		synchronized (this.sendLock) {
			IbvQP qp = this.adapterQp;
			if (this.closing || this.state != QueuePairState.RTS || qp == null || this.sends.isWindowWorkFull()) {
				return false;
			}
			int slot = this.sends.addWindowWork(done);
			try {
				WindowNatives.invalidate(handle(qp), WorkRequestIds.send(this.index, slot), rkey);
				return true;
			}
			catch (IOException ex) {
				this.sends.removeNewest();
				return false;
			}
		}
	}

	/**
	 * A region's window is no longer bound here (invalidated, or deallocated).
	 * @param region the region
	 */
	void windowUnbound(DisniMemoryRegion region) {
		synchronized (this.sendLock) {
			this.boundWindows.remove(region);
		}
	}

	private static long handle(IbvQP qp) {
		return ((NatIbvQP) qp).getObjId();
	}

	@Override
	public void postRecv(ReceiveWorkRequest workRequest) {
		this.checks.checkReceiveSges(workRequest);
		boolean flushNow = false;
		synchronized (this.recvLock) {
			if (this.closing || this.state == QueuePairState.CLOSED) {
				throw this.checks.closed();
			}
			if (this.receives.isFull()) {
				throw this.checks.receiveQueueFull(this.receives.capacity());
			}
			this.receives.add(workRequest);
			IbvQP qp = this.adapterQp;
			if (qp != null && this.state == QueuePairState.ERROR) {
				// As for sends: flushed here, since siw would keep it forever.
				this.receives.removeNewest();
				flushNow = true;
			}
			else if (qp == null) {
				if (this.state != QueuePairState.INIT) {
					this.receives.removeNewest();
					flushNow = true;
				}
				// In INIT the receive waits for the adapter's queue pair (see attachAdapter).
			}
			else {
				try {
					postToAdapter(qp, workRequest);
				}
				catch (IOException ex) {
					this.receives.removeNewest();
					if (this.state != QueuePairState.ERROR) {
						throw postFailure("ibv_post_recv", workRequest.wrId(), ex);
					}
					flushNow = true;
				}
			}
		}
		if (flushNow) {
			this.recvCq.addProviderCompletions(List.of(
					DisniCompletionQueue.flushed(workRequest.wrId(), CompletionOpcode.RECV, this.index, this.errorDetail)));
		}
	}

	private void postToAdapter(IbvQP qp, ReceiveWorkRequest workRequest) throws IOException {
		ReceiveCall cached = this.receiveCalls.get(workRequest);
		if (cached != null && cached.matches(workRequest.sgList())) {
			cached.call().execute();
			return;
		}
		if (cached != null) {
			this.receiveCalls.remove(workRequest);
			cached.call().free();
		}
		SVCPostRecv call = qp.postRecv(List.of(DisniWorkRequests.receiveWorkRequest(workRequest.sgList(),
				WorkRequestIds.receive(this.index))), null);
		if (this.receiveCalls.size() < this.receiveCallLimit) {
			this.receiveCalls.put(workRequest, new ReceiveCall(call, lkeys(workRequest.sgList())));
			call.execute();
		}
		else {
			// The caller does not repost a fixed set of receives; do not grow without bound.
			try {
				call.execute();
			}
			finally {
				call.free();
			}
		}
	}

	private static int[] lkeys(List<ScatterGatherEntry> entries) {
		int[] keys = new int[DisniWorkRequests.adapterSgeCount(entries)];
		int n = 0;
		for (int i = 0; i < entries.size(); i++) {
			if (entries.get(i).length() > 0) {
				keys[n++] = entries.get(i).region().lkey();
			}
		}
		return keys;
	}

	private RdmaException postFailure(String verb, long wrId, IOException ex) {
		return new InvalidWorkRequestException(verb + " refused work request " + wrId + " on queue pair " + this.index
				+ " (" + DisniProtectionDomain.describe(ex) + "); check its scatter/gather entries and opcode, and "
				+ "that the queue pair is connected");
	}

	// ---- completions (called by the shared queue's poller) -----------------------------

	@Override
	public CompletionDispatcher.Sink deliver(IbvWC wc) {
		long wrId = wc.getWr_id();
		if (!WorkRequestIds.isReceive(wrId) && completeWindowWork(wc, WorkRequestIds.slot(wrId))) {
			return HANDLED;
		}
		DisniCompletionQueue cq = WorkRequestIds.isReceive(wc.getWr_id()) ? this.recvCq : this.sendCq;
		return cq.deliver(wc, this) ? cq : null;
	}

	/**
	 * Retires the work request an adapter completion reports and fills the SPI completion
	 * (called by the SPI queue, under its lock).
	 * @return {@code false} if it belongs to no outstanding work request
	 */
	boolean complete(IbvWC wc, WorkCompletion into) {
		long wrId = wc.getWr_id();
		return WorkRequestIds.isReceive(wrId) ? completeReceive(wc, into)
				: completeSend(wc, WorkRequestIds.slot(wrId), into);
	}

	@Override
	public void sharedQueueFailed(String detail) {
		this.sendCq.sharedQueueFailed(detail);
		if (this.recvCq != this.sendCq) {
			this.recvCq.sharedQueueFailed(detail);
		}
		this.provider.events().execute(() -> failConnection(detail));
	}

	/**
	 * Handles the completion of the provider's own window work request.
	 * @return {@code false} if the slot holds the caller's work request
	 */
	private boolean completeWindowWork(IbvWC wc, int slot) {
		WindowWork work;
		boolean orphaned;
		synchronized (this.sendLock) {
			if (!this.sends.isOutstanding(slot) || (work = this.sends.windowWork(slot)) == null) {
				return false;
			}
			this.sends.retireThrough(slot);
			orphaned = this.sends.hasOrphans();
		}
		if (orphaned) {
			tellOrphans();
		}
		int status = wc.getStatus();
		work.windowWorkDone(status == DisniCompletions.IBV_WC_SUCCESS);
		if (DisniCompletions.isFatal(status)) {
			String detail = "a memory-window work request failed: " + DisniCompletions.detail(status);
			this.provider.events().execute(() -> failConnection(detail));
		}
		else if (status == DisniCompletions.IBV_WC_WR_FLUSH_ERR && this.state == QueuePairState.RTS) {
			enterError("the adapter flushed the queue pair");
		}
		return true;
	}

	/** Tells window work that a later completion retired before its own came that it was lost. */
	private void tellOrphans() {
		List<WindowWork> orphans = new ArrayList<>(1);
		synchronized (this.sendLock) {
			this.sends.drainOrphans(orphans);
		}
		for (WindowWork work : orphans) {
			work.windowWorkDone(false);
		}
	}

	private boolean completeSend(IbvWC wc, int slot, WorkCompletion into) {
		boolean orphaned;
		long wrId;
		SendOpcode opcode;
		int length;
		synchronized (this.sendLock) {
			if (!this.sends.isOutstanding(slot)) {
				return false;
			}
			wrId = this.sends.wrId(slot);
			opcode = this.sends.opcode(slot);
			length = this.sends.length(slot);
			this.sends.retireThrough(slot);
			orphaned = this.sends.hasOrphans();
		}
		if (orphaned) {
			tellOrphans();
		}
		DisniCompletions.fillSend(into, wc, wrId, opcode, length, this.index);
		afterCompletion(wc.getStatus(), into);
		return true;
	}

	private boolean completeReceive(IbvWC wc, WorkCompletion into) {
		ReceiveWorkRequest request;
		synchronized (this.recvLock) {
			request = this.receives.retireOldest();
		}
		if (request == null) {
			return false;
		}
		DisniCompletions.fillReceive(into, wc, request.wrId(), this.index);
		if (into.withInvalidate()) {
			this.pd.invalidatedByPeer(into.invalidatedStag());
		}
		afterCompletion(wc.getStatus(), into);
		return true;
	}

	private void afterCompletion(int ibvStatus, WorkCompletion completion) {
		if (DisniCompletions.isFatal(ibvStatus)) {
			// The adapter put the queue pair in error. Failing the connection takes locks and
			// emits events, so it leaves the completion queue's lock first.
			String detail = completion.detail();
			this.provider.events().execute(() -> failConnection(detail));
		}
		else if (ibvStatus == DisniCompletions.IBV_WC_WR_FLUSH_ERR && this.state == QueuePairState.RTS) {
			enterError("the adapter flushed the queue pair");
		}
	}

	private void failConnection(String detail) {
		DisniConnection current = this.connection;
		if (current != null) {
			current.fail(detail);
		}
		enterError(detail);
	}

	// ---- lifecycle --------------------------------------------------------------------

	boolean attach(DisniConnection value) {
		synchronized (this.stateLock) {
			if (this.connection != null || this.state != QueuePairState.INIT || this.closing) {
				return false;
			}
			this.connection = value;
			return true;
		}
	}

	DisniConnection connection() {
		return this.connection;
	}

	/**
	 * Creates the adapter's queue pair on the connection's cm id and hands it the receives
	 * posted so far, in order.
	 * @param id the connection's rdma_cm id, bound to this provider's device
	 * @throws IOException if rdma_create_qp or a receive fails
	 */
	void attachAdapter(RdmaCmId id) throws IOException {
		IbvQPInitAttr init = new IbvQPInitAttr();
		init.cap().setMax_send_wr(this.attributes.maxSendWorkRequests() + this.windowDepth);
		init.cap().setMax_recv_wr(this.attributes.maxReceiveWorkRequests());
		init.cap().setMax_send_sge(this.attributes.maxSendSges());
		init.cap().setMax_recv_sge(this.attributes.maxReceiveSges());
		init.cap().setMax_inline_data(this.maxInlineData);
		init.setQp_type(IbvQP.IBV_QPT_RC);
		init.setSend_cq(this.share.adapter().ibvCq());
		init.setRecv_cq(this.share.adapter().ibvCq());
		IbvQP qp = id.createQP(this.pd.ibvPd(), init);
		if (qp == null) {
			throw new IOException("rdma_create_qp returned no queue pair");
		}
		synchronized (this.recvLock) {
			this.cmId = id;
			this.adapterQp = qp;
			for (int i = 0; i < this.receives.size(); i++) {
				postToAdapter(qp, this.receives.get(i));
			}
		}
	}

	void enterReadyToSend() {
		synchronized (this.stateLock) {
			if (this.state == QueuePairState.INIT) {
				this.state = QueuePairState.RTS;
			}
		}
	}

	/**
	 * Moves to the error state. Work the adapter holds is flushed by the adapter; work it
	 * never saw (receives of a queue pair that never connected) is flushed here.
	 * @param detail why
	 */
	void enterError(String detail) {
		synchronized (this.stateLock) {
			if (this.state != QueuePairState.INIT && this.state != QueuePairState.RTS) {
				return;
			}
			this.errorDetail = detail;
			this.state = QueuePairState.ERROR;
		}
		if (this.adapterQp == null) {
			flushRecords(detail);
		}
	}

	/**
	 * After a failed connection attempt: error state, adapter queue pair destroyed, all
	 * work reported flushed.
	 */
	void connectFailed(String detail) {
		enterError(detail);
		flushRecords(detail);
	}

	/**
	 * Destroys the adapter's queue pair of a connection that failed to come up. Blocking: on an
	 * iWARP adapter the connection manager holds the queue pair until the MPA exchange ends,
	 * seconds after a peer that never answers, so callers run this off the event threads.
	 */
	void releaseFailedAdapter() {
		releaseAdapter(false);
	}

	/**
	 * Destroys the adapter's queue pair, after giving the adapter the grace period to
	 * report its flushes when asked to. The shared queue's poller delivers them; when that is
	 * the calling thread (a handler closing its queue pair), it polls here.
	 */
	private void releaseAdapter(boolean awaitFlush) {
		IbvQP qp = this.adapterQp;
		RdmaCmId id = this.cmId;
		if (qp == null || id == null) {
			return;
		}
		if (awaitFlush) {
			long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(this.provider.settings().flushGraceMillis());
			while (outstanding() > 0 && System.nanoTime() - deadline < 0) {
				int moved = this.share.isPollerThread() ? this.share.pollBatch() : 0;
				if (moved < 0) {
					break;
				}
				if (moved == 0) {
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
				}
			}
		}
		List<DisniMemoryRegion> bound;
		synchronized (this.sendLock) {
			synchronized (this.recvLock) {
				this.adapterQp = null;
			}
			bound = new ArrayList<>(this.boundWindows.keySet());
			this.boundWindows.clear();
		}
		for (DisniMemoryRegion region : bound) {
			region.queuePairGone(this);
		}
		// Serialized with rdma_disconnect on the same id (DisniConnection#disconnectQuietly).
		synchronized (id) {
			try {
				id.destroyQP();
			}
			catch (IOException ex) {
				logger.log(Level.WARNING, "rdma_destroy_qp failed for queue pair " + this.index, ex);
			}
		}
		for (int i = 0; i < this.sendCalls.length; i++) {
			if (this.sendCalls[i] != null) {
				this.sendCalls[i].free();
				this.sendCalls[i] = null;
			}
		}
		synchronized (this.recvLock) {
			for (ReceiveCall call : this.receiveCalls.values()) {
				call.call().free();
			}
			this.receiveCalls.clear();
		}
	}

	private int outstanding() {
		int n;
		synchronized (this.sendLock) {
			n = this.sends.size();
		}
		synchronized (this.recvLock) {
			return n + this.receives.size();
		}
	}

	/**
	 * Reports every recorded work request flushed: sends first, then receives, each in
	 * posting order.
	 */
	private void flushRecords(String detail) {
		List<WorkCompletion> sendFlushes = new ArrayList<>();
		List<WindowWork> windowFlushes = new ArrayList<>(0);
		synchronized (this.sendLock) {
			int slot;
			while ((slot = this.sends.oldest()) >= 0) {
				WindowWork work = this.sends.windowWork(slot);
				if (work != null) {
					windowFlushes.add(work);
				}
				else {
					sendFlushes.add(DisniCompletionQueue.flushed(this.sends.wrId(slot),
							CompletionOpcode.of(this.sends.opcode(slot)), this.index, detail));
				}
				this.sends.retireThrough(slot);
			}
			this.sends.drainOrphans(windowFlushes);
		}
		for (WindowWork work : windowFlushes) {
			work.windowWorkDone(false);
		}
		List<WorkCompletion> receiveFlushes = new ArrayList<>();
		synchronized (this.recvLock) {
			ReceiveWorkRequest request;
			while ((request = this.receives.retireOldest()) != null) {
				receiveFlushes.add(DisniCompletionQueue.flushed(request.wrId(), CompletionOpcode.RECV, this.index, detail));
			}
		}
		this.sendCq.addProviderCompletions(sendFlushes);
		this.recvCq.addProviderCompletions(receiveFlushes);
	}

	@Override
	public void close() {
		synchronized (this.stateLock) {
			if (this.closing || this.state == QueuePairState.CLOSED) {
				return;
			}
			this.closing = true;
		}
		DisniConnection current = this.connection;
		if (current != null) {
			// rdma_disconnect moves the adapter's queue pair to error, which flushes its work.
			current.disconnect();
		}
		enterError("queue pair " + this.index + " closed");
		releaseAdapter(true);
		flushRecords("queue pair " + this.index + " closed");
		synchronized (this.stateLock) {
			this.state = QueuePairState.CLOSED;
		}
		if (current != null) {
			current.release();
		}
		this.provider.sharedQueues().release(this.share, this.reservedEntries, this);
		this.provider.queuePairClosed(this);
	}

	@Override
	public String toString() {
		return "DisniQueuePair[qpn=" + this.index + ", adapterQpn=" + adapterQueuePairNumber() + ", state="
				+ this.state + "]";
	}

}
