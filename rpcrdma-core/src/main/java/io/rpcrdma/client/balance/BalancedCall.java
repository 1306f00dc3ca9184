package io.rpcrdma.client.balance;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.BooleanSupplier;

import io.rpcrdma.client.CallAttempts;
import io.rpcrdma.client.CallBody;
import io.rpcrdma.client.CallChunks;
import io.rpcrdma.client.ReceivedReply;
import io.rpcrdma.client.ReplyCallback;
import io.rpcrdma.client.RpcCaller;

/**
 * One call through a {@link BalancedCaller}, recycled for the next: it asks the balancer for
 * an instance, is the {@link ReplyCallback} of each attempt, tells the instance how the
 * attempt went, and sends the call again on another instance when that is safe
 * ({@link Failures#mayRetry}), within the call's one deadline and the retry policy's attempts.
 * It is also the {@link Balancer.Candidates} of its choices: an instance is eligible when it
 * is up and this call has not tried it yet.
 */
final class BalancedCall implements ReplyCallback, Balancer.Candidates {

	private final BalancedCaller owner;

	private int program;

	private int version;

	private int procedure;

	private CallBody arguments;

	private CallChunks shape;

	/**
	 * Unlike a pool, which can only send a call again to the same server, the balancer also
	 * sends on a call that never left this client, idempotent or not ({@link Failures#mayRetry}),
	 * and sends at once to an instance this call has not tried before backing off.
	 */
	private final CallAttempts attempts = new CallAttempts(Failures::mayRetry);

	private final BooleanSupplier elsewhereNow = this::untriedEligible;

	private ReplyCallback callback;

	/** The instances of the choice under way. */
	private Member[] members;

	/** Instances this call went to or found unreachable; grown only past four. */
	private Member[] tried = new Member[4];

	private int triedCount;

	/** The instance of the attempt under way. */
	private Member current;

	private Throwable lastFailure;

	BalancedCall(BalancedCaller owner) {
		this.owner = owner;
	}

	void start(int program, int version, int procedure, CallBody arguments, CallChunks shape, boolean idempotent,
			Duration timeout, ReplyCallback callback) {
		this.program = program;
		this.version = version;
		this.procedure = procedure;
		this.arguments = arguments;
		this.shape = shape;
		this.attempts.start(timeout, idempotent);
		this.triedCount = 0;
		this.lastFailure = null;
		this.callback = callback;
		attempt();
	}

	/** Sends an attempt to the balancer's choice among the instances this call has not tried. */
	private void attempt() {
		this.attempts.begin();
		Member[] snapshot;
		try {
			snapshot = this.owner.members();
		}
		catch (RuntimeException ex) {
			end(null, ex);
			return;
		}
		this.members = snapshot;
		Member unreachable = null;
		Balancer balancer = this.owner.balancer();
		while (true) {
			int index = balancer.choose(this);
			if (index < 0) {
				break;
			}
			Member chosen = snapshot[index];
			tried(chosen);
			if (chosen.unreachable()) {
				// Its pool would hold the call until a connection opens: try another instance
				// first, and come back to this one only if there is none.
				chosen.foundUnreachable(this.program, this.version);
				if (unreachable == null) {
					unreachable = chosen;
				}
				continue;
			}
			RpcCaller target = chosen.acquire(this.program, this.version);
			if (target != null) {
				this.members = null;
				send(chosen, target);
				return;
			}
		}
		this.members = null;
		if (unreachable != null && unreachable.isUp()) {
			RpcCaller target = unreachable.acquire(this.program, this.version);
			if (target != null) {
				send(unreachable, target);
				return;
			}
		}
		end(null, this.owner.noInstance(this.arguments, this.program, this.version, this.procedure, this.lastFailure));
	}

	private void send(Member chosen, RpcCaller target) {
		this.current = chosen;
		target.call(this.program, this.version, this.procedure, this.arguments, this.shape,
				this.attempts.idempotent(), this.attempts.remaining(), this);
	}

	@Override
	public void replied(ReceivedReply reply) {
		Member member = this.current;
		this.current = null;
		member.release();
		member.succeeded();
		end(reply, null);
	}

	@Override
	public void failed(Throwable failure) {
		Member member = this.current;
		this.current = null;
		member.release();
		if (Failures.connectionFailure(failure)) {
			member.failed(failure, this.program, this.version);
		}
		else if (Failures.serverAnswered(failure)) {
			member.succeeded();
		}
		this.lastFailure = failure;
		Optional<Duration> delay = this.attempts.next(failure, this.owner.config().retry(), this.elsewhereNow);
		if (delay.isEmpty()) {
			end(null, failure);
			return;
		}
		this.owner.countFailover();
		if (delay.get().isZero()) {
			attempt();
			return;
		}
		// Every instance up has been tried: the same ones again, after a backoff delay, so that a
		// lone instance gets the time to reconnect.
		Arrays.fill(this.tried, 0, this.triedCount, null);
		this.triedCount = 0;
		this.owner.timer().schedule(delay.get(), this::attempt);
	}

	private boolean untriedEligible() {
		Member[] snapshot;
		try {
			snapshot = this.owner.members();
		}
		catch (RuntimeException ex) {
			return false;
		}
		this.members = snapshot;
		try {
			for (int i = 0; i < snapshot.length; i++) {
				if (eligible(i)) {
					return true;
				}
			}
			return false;
		}
		finally {
			this.members = null;
		}
	}

	private void tried(Member member) {
		if (this.triedCount == this.tried.length) {
			this.tried = Arrays.copyOf(this.tried, this.tried.length * 2);
		}
		this.tried[this.triedCount++] = member;
	}

	@Override
	public int size() {
		return this.members.length;
	}

	@Override
	public boolean eligible(int index) {
		Member member = this.members[index];
		if (!member.isUp()) {
			return false;
		}
		for (int i = 0; i < this.triedCount; i++) {
			if (this.tried[i] == member) {
				return false;
			}
		}
		return true;
	}

	@Override
	public int outstanding(int index) {
		return this.members[index].outstanding();
	}

	/** Passes the final outcome on; this object is reused from here. */
	private void end(ReceivedReply reply, Throwable failure) {
		ReplyCallback told = this.callback;
		this.callback = null;
		this.arguments = null;
		this.shape = null;
		this.lastFailure = null;
		Arrays.fill(this.tried, 0, this.triedCount, null);
		this.triedCount = 0;
		this.owner.recycle(this);
		if (failure == null) {
			told.replied(reply);
		}
		else {
			told.failed(failure);
		}
	}

}
