package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletionException;

import io.rpcrdma.client.PoolExhaustedException;
import io.rpcrdma.demo.cli.ErrorMessages;
import io.rpcrdma.demo.cli.StoreCommands;
import io.rpcrdma.demo.store.ObjectStore;
import io.rpcrdma.demo.store.ObjectStoreService;
import io.rpcrdma.demo.store.StoreLimits;
import io.rpcrdma.service.RemoteFault;
import io.rpcrdma.service.RemoteRpcException;
import io.rpcrdma.transport.CreditWaitTimeoutException;
import io.rpcrdma.transport.MessageTooLargeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's commands and the one-line messages its failures become.
 */
class DemoCliTest {

	@TempDir
	Path files;

	private final ObjectStoreService store = new ObjectStoreService(new StoreLimits(1 << 20, 8L << 20),
			Clock.systemUTC());

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	private final StoreCommands commands = new StoreCommands(this.store, "10.0.0.1:20049",
			new PrintStream(this.out, true, StandardCharsets.UTF_8), new PrintStream(this.err, true, StandardCharsets.UTF_8));

	@Test
	void putStatGetListDeleteRoundTrip() throws Exception {
		Path file = this.files.resolve("in.bin");
		Files.write(file, ObjectStoreServiceTest.bytes(70_000, 5));
		assertThat(run("put", "photos/cat", file.toString())).isZero();
		assertThat(out()).startsWith("stored photos/cat  68.4 KiB  crc32c ");
		assertThat(run("stat", "photos/cat")).isZero();
		assertThat(run("list", "photos/")).isZero();
		assertThat(out()).contains("1 objects");
		Path back = this.files.resolve("out.bin");
		assertThat(run("get", "photos/cat", back.toString())).isZero();
		assertThat(Files.readAllBytes(back)).isEqualTo(Files.readAllBytes(file));
		assertThat(run("delete", "photos/cat")).isZero();
		assertThat(run("status")).isZero();
		assertThat(out()).contains("0 objects, 0 B of 8 MiB; largest object accepted 1 MiB");
		assertThat(err()).isEmpty();
	}

	@Test
	void aMissingObjectIsOneLineWithoutAStackTrace() {
		assertThat(run("stat", "nothing/here")).isEqualTo(ErrorMessages.REFUSED);
		assertThat(err()).isEqualTo("error: No object 'nothing/here' in the store" + System.lineSeparator());
		assertThat(run("delete", "nothing/here")).isEqualTo(ErrorMessages.REFUSED);
		assertThat(run("get", "nothing/here")).isEqualTo(ErrorMessages.REFUSED);
		assertThat(err().lines()).hasSize(3).allMatch((line) -> line.startsWith("error: No object 'nothing/here'"));
	}

	@Test
	void anObjectAboveTheStoresLimitSaysBothSizes() throws Exception {
		Path file = this.files.resolve("big.bin");
		Files.write(file, new byte[(1 << 20) + 512]);
		assertThat(run("put", "big", file.toString())).isEqualTo(ErrorMessages.REFUSED);
		assertThat(err()).isEqualTo("error: Object 'big' is 1.0 MiB, larger than this store's limit of 1 MiB "
				+ "(demo.store.max-object-size)" + System.lineSeparator());
	}

	@Test
	void aFileNoStoreCouldAcceptIsRefusedBeforeItIsRead() throws Exception {
		Path file = this.files.resolve("huge.bin");
		try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE_NEW,
				java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.SPARSE)) {
			channel.write(java.nio.ByteBuffer.wrap(new byte[1]), ObjectStore.MAX_OBJECT_BYTES);
		}
		assertThat(run("put", "huge", file.toString())).isEqualTo(ErrorMessages.REFUSED);
		assertThat(err()).contains("is 32.0 MiB, larger than the largest object an object store accepts (32 MiB)");
	}

	@Test
	void badCommandLinesSayWhatIsExpected() {
		assertThat(run()).isEqualTo(ErrorMessages.REFUSED);
		assertThat(run("frobnicate")).isEqualTo(ErrorMessages.REFUSED);
		assertThat(run("put", "only-a-key")).isEqualTo(ErrorMessages.REFUSED);
		assertThat(run("put", "k", this.files.resolve("absent").toString())).isEqualTo(ErrorMessages.REFUSED);
		assertThat(run("stat", "")).isEqualTo(ErrorMessages.REFUSED);
		assertThat(err().lines()).containsExactly("error: No command given; " + StoreCommands.USAGE,
				"error: Unknown command 'frobnicate'; " + StoreCommands.USAGE,
				"error: put takes a key and a file; " + StoreCommands.USAGE,
				"error: No file " + this.files.resolve("absent"),
				"error: Invalid request: An object key must not be empty");
	}

	@Test
	void transportFailuresSayTheStoreCannotBeReachedAndWhatToDo() {
		ErrorMessages.Described pool = ErrorMessages.describe(
				new CompletionException(new PoolExhaustedException("No connection to /10.0.0.1:20049 opened within PT30S")),
				"10.0.0.1:20049");
		assertThat(pool.exitStatus()).isEqualTo(ErrorMessages.UNREACHABLE);
		assertThat(pool.message()).isEqualTo("Cannot reach the object store at 10.0.0.1:20049: No connection to "
				+ "/10.0.0.1:20049 opened within PT30S. Is the server running? Start one with "
				+ "--spring.profiles.active=server, or set rpcrdma.client.store.address=host:port to a running one.");
		assertThat(ErrorMessages.describe(new CreditWaitTimeoutException("no credit within 5 s"), "h:1").exitStatus())
			.isEqualTo(ErrorMessages.UNREACHABLE);
	}

	@Test
	void aChunkLargerThanThisProcesssBuffersIsNotCalledUnreachable() {
		ErrorMessages.Described described = ErrorMessages.describe(new CompletionException(
				new MessageTooLargeException("33554432 bytes exceed the largest write-chunk buffer of 4194304 bytes")),
				"h:1");
		assertThat(described.exitStatus()).isEqualTo(ErrorMessages.FAILED);
		assertThat(described.message()).startsWith("This process cannot convey the call: 33554432 bytes exceed")
			.contains("rpcrdma.memory.largest-chunk")
			.doesNotContain("Cannot reach");
	}

	@Test
	void anUnknownRemoteFailureNamesTheRemoteTypeAndMessage() {
		RemoteRpcException remote = new RemoteRpcException(new RemoteFault(17, "com.example.QuotaException", "over quota"),
				"ObjectStore.put");
		ErrorMessages.Described described = ErrorMessages.describe(remote, "h:1");
		assertThat(described.message()).isEqualTo("The object store failed with com.example.QuotaException: over quota");
		assertThat(described.exitStatus()).isEqualTo(ErrorMessages.FAILED);
	}

	private int run(String... args) {
		return this.commands.run(List.of(args));
	}

	private String out() {
		return this.out.toString(StandardCharsets.UTF_8);
	}

	private String err() {
		return this.err.toString(StandardCharsets.UTF_8);
	}

}
