package io.rpcrdma.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The RPCSEC_GSS context table's shares, without Kerberos (its values are strings here; the
 * MIT KDC tests, RpcSecGssContextFloodTest and RpcSecGssContextCreationTest, hold real
 * sessions): a connection and a principal each get a bounded share, contexts in creation
 * expire on the injected clock, a full table takes room from the heaviest holder and never from
 * a client with one context in use, a closing connection takes its contexts with it, and
 * concurrent INITs never take more than the limits allow.
 */
class GssContextTableTest {

	private static final GssContextLimits LIMITS = new GssContextLimits(8, 3, 5, Duration.ofSeconds(30),
			Duration.ofHours(1));

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final List<String> discarded = new CopyOnWriteArrayList<>();

	private final ExecutorService threads = Executors.newFixedThreadPool(8);

	private final AtomicInteger names = new AtomicInteger();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void aConnectionAtItsLimitIsRefusedSayingSoAndAnotherConnectionIsNot() {
		GssContextTable<String> table = table(LIMITS);
		for (int i = 0; i < 3; i++) {
			established(table, "mallory-conn", "mallory@R");
		}

		assertThatExceptionOfType(GssContextRefusedException.class)
			.isThrownBy(() -> table.reserve("mallory-conn", null))
			.satisfies((ex) -> {
				assertThat(ex.limit()).isEqualTo(GssContextRefusedException.Limit.PER_CONNECTION);
				assertThat(ex.first()).as("the first refusal is worth a warning").isTrue();
			})
			.withMessageContaining("already holds 3 RPCSEC_GSS contexts")
			.withMessageContaining("rpcrdma.server.security.kerberos.contexts.per-connection")
			.withMessageContaining("none unused for 1 h");
		assertThatExceptionOfType(GssContextRefusedException.class)
			.isThrownBy(() -> table.reserve("mallory-conn", null))
			.satisfies((ex) -> assertThat(ex.first()).as("later ones are not: a flood must not flood the log").isFalse());
		GssContextTable.Entry<String> alice = established(table, "alice-conn", "alice@R");

		assertThat(alice.established()).isTrue();
		assertThat(table.size()).isEqualTo(4);
		assertThat(table.heldBy("mallory-conn")).isEqualTo(3);
		assertThat(this.discarded).isEmpty();
	}

	@Test
	void aConnectionAtItsLimitGetsANewContextOnlyInPlaceOfOneOfItsOwnUnusedForTheIdleLimit() {
		GssContextTable<String> table = table(LIMITS);
		GssContextTable.Entry<String> oldest = established(table, "conn", "renewing@R");
		this.now.addAndGet(1);
		GssContextTable.Entry<String> newer = established(table, "conn", "renewing@R");
		GssContextTable.Entry<String> newest = established(table, "conn", "renewing@R");
		this.now.addAndGet(Duration.ofHours(1).toNanos());
		table.touch(newer);
		table.touch(newest);

		GssContextTable.Entry<String> renewed = established(table, "conn", "renewing@R");

		assertThat(oldest.removed()).as("unused for the idle limit: gave way").isTrue();
		assertThat(this.discarded).containsExactly(oldest.value());
		assertThat(newer.removed() || newest.removed() || renewed.removed()).isFalse();
		assertThat(table.heldBy("conn")).isEqualTo(3);
	}

	@Test
	void aPrincipalAtItsLimitIsRefusedOverAllItsConnectionsAndItsNewContextIsGone() {
		GssContextTable<String> table = table(LIMITS);
		for (int i = 0; i < 5; i++) {
			established(table, "mallory-conn-" + i, "mallory@R");
		}
		GssContextTable.Entry<String> sixth = attached(table, "mallory-conn-5");

		assertThatExceptionOfType(GssContextRefusedException.class)
			.isThrownBy(() -> table.establish(sixth, "mallory@R"))
			.satisfies((ex) -> assertThat(ex.limit()).isEqualTo(GssContextRefusedException.Limit.PER_PRINCIPAL))
			.withMessageContaining("mallory@R already holds 5 RPCSEC_GSS contexts")
			.withMessageContaining("contexts.per-principal");
		assertThat(sixth.removed()).isTrue();
		assertThat(this.discarded).containsExactly(sixth.value());
		assertThat(table.heldByPrincipal("mallory@R")).isEqualTo(5);
		assertThat(established(table, "mallory-conn-5", "alice@R").established()).as("another principal").isTrue();
	}

	@Test
	void contextsInCreationAreForgottenAfterTheCreationTimeoutAndEstablishedOnesAreNot() {
		GssContextTable<String> table = table(LIMITS);
		GssContextTable.Entry<String> done = established(table, "conn", "alice@R");
		GssContextTable.Entry<String> waiting = table.reserve("conn", null);
		GssContextTable.Entry<String> stepped = attached(table, "conn");

		this.now.addAndGet(Duration.ofSeconds(30).toNanos() - 1);
		assertThat(table.size()).isEqualTo(3);
		assertThat(table.creationExpired(stepped)).isFalse();
		this.now.addAndGet(1);
		assertThat(table.creationExpired(stepped)).isTrue();
		assertThat(table.establish(stepped, "alice@R")).as("its step completed after the timeout").isFalse();
		assertThat(table.size()).isEqualTo(1);

		assertThat(waiting.removed()).isTrue();
		assertThat(stepped.removed()).isTrue();
		assertThat(done.removed()).isFalse();
		assertThat(table.inCreation()).isZero();
		assertThat(this.discarded).containsExactly(stepped.value());
		assertThat(table.attach(waiting, "late")).as("a step that starts after the timeout").isFalse();
	}

	@Test
	void aFullTableTakesRoomFromTheHeaviestHolderLeastRecentlyUsedFirstAndNeverFromAClientsOneContext() {
		GssContextTable<String> table = table(LIMITS.withMaxContexts(6).withMaxPerConnection(16));
		// Alice's context is the least recently used of all: a plain LRU would take it.
		GssContextTable.Entry<String> alice = established(table, "alice-conn", "alice@R");
		this.now.addAndGet(1);
		GssContextTable.Entry<String> bob = established(table, "bob-conn", "bob@R");
		List<GssContextTable.Entry<String>> mallory = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			this.now.addAndGet(1);
			mallory.add(established(table, "mallory-conn", "mallory@R"));
		}
		this.now.addAndGet(1);
		table.touch(mallory.get(0));

		GssContextTable.Entry<String> carol = established(table, "carol-conn", "carol@R");
		assertThat(mallory.get(1).removed()).as("the heaviest holder's least recently used").isTrue();
		assertThat(established(table, "dave-conn", "dave@R").established()).isTrue();
		assertThat(mallory.get(2).removed()).isTrue();
		assertThat(established(table, "erin-conn", "erin@R").established()).isTrue();
		assertThat(table.heldByPrincipal("mallory@R")).isEqualTo(1);

		// Everyone holds one context, each in use: nothing gives way.
		assertThatExceptionOfType(GssContextRefusedException.class).isThrownBy(() -> table.reserve("frank-conn", null))
			.satisfies((ex) -> assertThat(ex.limit()).isEqualTo(GssContextRefusedException.Limit.TABLE_FULL))
			.withMessageContaining("context table is full (6 contexts")
			.withMessageContaining("contexts.max");
		assertThat(alice.removed() || bob.removed() || carol.removed()).as("no client's one context").isFalse();
		assertThat(table.size()).isEqualTo(6);
	}

	@Test
	void aFullTableTakesRoomFromAConnectionPilingUpContextsInCreation() {
		GssContextTable<String> table = table(LIMITS.withMaxContexts(4).withMaxPerConnection(16));
		GssContextTable.Entry<String> alice = established(table, "alice-conn", "alice@R");
		GssContextTable.Entry<String> first = table.reserve("mallory-conn", null);
		this.now.addAndGet(1);
		table.reserve("mallory-conn", null);
		table.reserve("mallory-conn", null);

		GssContextTable.Entry<String> bob = established(table, "bob-conn", "bob@R");

		assertThat(first.removed()).as("the oldest of the heaviest holder's contexts in creation").isTrue();
		assertThat(alice.removed() || bob.removed()).isFalse();
		assertThat(table.inCreation()).isEqualTo(2);
	}

	@Test
	void aFullTableOfClientsWithOneContextGivesWayOnlyToOneUnusedForTheIdleLimit() {
		GssContextTable<String> table = table(LIMITS.withMaxContexts(2));
		GssContextTable.Entry<String> alice = established(table, "alice-conn", "alice@R");
		GssContextTable.Entry<String> bob = established(table, "bob-conn", "bob@R");

		assertThatExceptionOfType(GssContextRefusedException.class).isThrownBy(() -> table.reserve("carol-conn", null))
			.satisfies((ex) -> assertThat(ex.first()).isTrue());
		assertThatExceptionOfType(GssContextRefusedException.class).isThrownBy(() -> table.reserve("carol-conn", null))
			.satisfies((ex) -> assertThat(ex.first()).isFalse());

		this.now.addAndGet(Duration.ofHours(1).toNanos());
		table.touch(bob);
		GssContextTable.Entry<String> carol = established(table, "carol-conn", "carol@R");

		assertThat(alice.removed()).as("unused for an hour").isTrue();
		assertThat(bob.removed() || carol.removed()).isFalse();
	}

	@Test
	void aConnectionThatClosesTakesEveryContextItHeldWithItThroughOneCallback() {
		GssContextTable<String> table = table(LIMITS);
		CompletableFuture<Void> closed = new CompletableFuture<>();
		GssContextTable.Entry<String> established = attached(table, "conn", closed);
		table.establish(established, "mallory@R");
		GssContextTable.Entry<String> stepping = attached(table, "conn", closed);
		GssContextTable.Entry<String> waiting = table.reserve("conn", closed);
		table.remove(waiting);
		table.reserve("conn", closed);
		GssContextTable.Entry<String> other = established(table, "other-conn", "alice@R");

		assertThat(closed.getNumberOfDependents()).as("one close callback per connection, not per context").isEqualTo(1);
		closed.complete(null);

		assertThat(table.size()).isEqualTo(1);
		assertThat(established.removed() && stepping.removed()).isTrue();
		assertThat(other.removed()).isFalse();
		assertThat(table.heldBy("conn")).isZero();
		assertThat(table.heldByPrincipal("mallory@R")).isZero();
		assertThat(table.inCreation()).isZero();
		assertThat(this.discarded).containsExactlyInAnyOrder(established.value(), stepping.value());
		// An INIT that reaches the table after its connection closed is forgotten at once.
		assertThat(table.reserve("conn", closed).removed()).isTrue();
		assertThat(table.size()).isEqualTo(1);
	}

	@Test
	void concurrentInitsOnOneConnectionTakeExactlyItsShare() throws Exception {
		GssContextTable<String> table = table(LIMITS.withMaxContexts(1000).withMaxPerConnection(8));
		int taken = race(16, 50, (thread, attempt) -> {
			GssContextTable.Entry<String> entry = table.reserve("mallory-conn", null);
			table.attach(entry, "v");
			table.establish(entry, "mallory@R" + thread);
		});
		assertThat(taken).isEqualTo(8);
		assertThat(table.size()).isEqualTo(8);
		assertThat(table.heldBy("mallory-conn")).isEqualTo(8);
	}

	@Test
	void concurrentInitsOfOnePrincipalOverManyConnectionsEstablishExactlyItsShare() throws Exception {
		GssContextTable<String> table = table(LIMITS.withMaxContexts(1000).withMaxPerConnection(1000));
		int taken = race(16, 50, (thread, attempt) -> {
			GssContextTable.Entry<String> entry = table.reserve("mallory-conn-" + thread + "-" + attempt, null);
			table.attach(entry, "v");
			table.establish(entry, "mallory@R");
		});
		assertThat(taken).isEqualTo(5);
		assertThat(table.heldByPrincipal("mallory@R")).isEqualTo(5);
		assertThat(table.size()).as("the refused ones removed").isEqualTo(5);
	}

	@Test
	void concurrentInitsFromManyClientsNeverFillMoreThanTheTable() throws Exception {
		GssContextTable<String> table = table(LIMITS.withMaxContexts(64).withMaxPerConnection(1000));
		// Each context is its own principal's only one and is in use: none may give way.
		int taken = race(16, 40, (thread, attempt) -> {
			String who = "client-" + thread + "-" + attempt;
			GssContextTable.Entry<String> entry = table.reserve(who, null);
			table.attach(entry, who);
			table.establish(entry, who + "@R");
		});
		assertThat(taken).isEqualTo(64);
		assertThat(table.size()).isEqualTo(64);
		assertThat(this.discarded).isEmpty();
	}

	@Test
	void limitsAreValidatedAndAShareAboveTheTableChangesNothing() {
		assertThatIllegalArgumentException().isThrownBy(() -> LIMITS.withMaxPerConnection(0))
			.withMessageContaining("at least 1");
		assertThatIllegalArgumentException().isThrownBy(() -> LIMITS.withCreationTimeout(Duration.ZERO))
			.withMessageContaining("creation timeout must be positive");
		assertThatIllegalArgumentException().isThrownBy(() -> LIMITS.withIdleLimit(Duration.ofSeconds(-1)));
		GssContextTable<String> table = table(LIMITS.withMaxContexts(2).withMaxPerConnection(100));
		established(table, "conn", "a@R");
		established(table, "conn", "b@R");
		assertThatExceptionOfType(GssContextRefusedException.class).isThrownBy(() -> table.reserve("conn", null))
			.satisfies((ex) -> assertThat(ex.limit()).isEqualTo(GssContextRefusedException.Limit.TABLE_FULL));
	}

	private GssContextTable<String> table(GssContextLimits limits) {
		return new GssContextTable<>(limits, this.now::get, this.discarded::add);
	}

	private GssContextTable.Entry<String> attached(GssContextTable<String> table, Object binding) {
		return attached(table, binding, null);
	}

	private GssContextTable.Entry<String> attached(GssContextTable<String> table, Object binding,
			CompletableFuture<Void> closed) {
		GssContextTable.Entry<String> entry = table.reserve(binding, closed);
		assertThat(table.attach(entry, "session-" + this.names.incrementAndGet())).isTrue();
		return entry;
	}

	private GssContextTable.Entry<String> established(GssContextTable<String> table, Object binding, String principal) {
		GssContextTable.Entry<String> entry = attached(table, binding);
		assertThat(table.establish(entry, principal)).isTrue();
		return entry;
	}

	/** An INIT and its completion, by thread and attempt number; throws when refused. */
	private interface Attempt {

		void run(int thread, int attempt);

	}

	/**
	 * Runs {@code attempts} attempts on each of {@code threads} threads, all released at once.
	 * @return how many were not refused
	 */
	private int race(int threads, int attempts, Attempt attempt) throws Exception {
		CountDownLatch start = new CountDownLatch(1);
		AtomicInteger taken = new AtomicInteger();
		List<Future<?>> running = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int thread = t;
			running.add(this.threads.submit(() -> {
				start.await();
				for (int i = 0; i < attempts; i++) {
					try {
						attempt.run(thread, i);
						taken.incrementAndGet();
					}
					catch (GssContextRefusedException ex) {
						// Refused: what most of them get.
					}
				}
				return null;
			}));
		}
		start.countDown();
		for (Future<?> each : running) {
			each.get(30, TimeUnit.SECONDS);
		}
		return taken.get();
	}

}
