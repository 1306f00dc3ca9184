package io.rpcrdma.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import io.rpcrdma.demo.store.ObjectInfo;
import io.rpcrdma.demo.store.ObjectListing;
import io.rpcrdma.demo.store.ObjectNotFoundException;
import io.rpcrdma.demo.store.ObjectStore;
import io.rpcrdma.demo.store.ObjectStoreService;
import io.rpcrdma.demo.store.ObjectTooLargeException;
import io.rpcrdma.demo.store.StoreFullException;
import io.rpcrdma.demo.store.StoreLimits;
import io.rpcrdma.service.BulkData;
import org.junit.jupiter.api.Test;

/**
 * The object store's own logic, without a transport.
 */
class ObjectStoreServiceTest {

	private static final Instant NOW = Instant.parse("2026-11-22T06:00:00Z");

	private final ObjectStoreService store = new ObjectStoreService(new StoreLimits(1 << 20, 3L << 20),
			Clock.fixed(NOW, ZoneOffset.UTC));

	@Test
	void storesAndReturnsContentsWithSizeAndChecksum() {
		byte[] data = bytes(5000, 7);
		ObjectInfo info = this.store.put("a/b", BulkData.wrap(data));
		assertThat(info).isEqualTo(new ObjectInfo("a/b", 5000, ObjectStoreService.crc32c(ByteBuffer.wrap(data)),
				NOW.toEpochMilli()));
		assertThat(this.store.get("a/b").toByteArray()).isEqualTo(data);
		assertThat(this.store.stat("a/b")).isEqualTo(info);
	}

	@Test
	void keepsItsOwnCopyOfTheArgument() {
		byte[] data = bytes(100, 1);
		this.store.put("k", BulkData.wrap(data));
		data[0] ^= 1;
		assertThat(this.store.get("k").toByteArray()).isEqualTo(bytes(100, 1));
	}

	@Test
	void aMissingObjectIsAnObjectNotFoundExceptionNamingTheKey() {
		assertThatExceptionOfType(ObjectNotFoundException.class).isThrownBy(() -> this.store.get("nope"))
			.withMessage("No object 'nope' in the store");
		assertThatExceptionOfType(ObjectNotFoundException.class).isThrownBy(() -> this.store.stat("nope"));
		assertThatExceptionOfType(ObjectNotFoundException.class).isThrownBy(() -> this.store.read("nope", 0, 1));
		assertThat(this.store.delete("nope")).isFalse();
	}

	@Test
	void anObjectAboveTheLimitIsRefusedWithBothSizes() {
		assertThatExceptionOfType(ObjectTooLargeException.class)
			.isThrownBy(() -> this.store.put("big", BulkData.wrap(new byte[(1 << 20) + 1])))
			.withMessage("Object 'big' is 1.0 MiB, larger than this store's limit of 1 MiB (demo.store.max-object-size)");
		this.store.put("exact", BulkData.wrap(new byte[1 << 20]));
		assertThat(this.store.status().bytes()).isEqualTo(1 << 20);
	}

	@Test
	void capacityCountsReplacedObjectsOnceAndRefusesWhatDoesNotFit() {
		this.store.put("x", BulkData.wrap(new byte[1 << 20]));
		this.store.put("y", BulkData.wrap(new byte[1 << 20]));
		this.store.put("x", BulkData.wrap(new byte[1 << 20]));
		this.store.put("z", BulkData.wrap(new byte[1 << 20]));
		assertThat(this.store.status().bytes()).isEqualTo(3L << 20);
		assertThatExceptionOfType(StoreFullException.class)
			.isThrownBy(() -> this.store.put("w", BulkData.wrap(new byte[1])))
			.withMessageContaining("holds 3 MiB of its 3 MiB capacity")
			.withMessageContaining("demo.store.capacity");
		assertThat(this.store.delete("y")).isTrue();
		this.store.put("w", BulkData.wrap(new byte[1]));
		assertThat(this.store.status().objects()).isEqualTo(3);
	}

	@Test
	void listsByPrefixInKeyOrderAndPagesOn() {
		for (String key : new String[] { "b/2", "a/1", "b/1", "b/3", "c/1", "b" }) {
			this.store.put(key, BulkData.wrap(new byte[1]));
		}
		ObjectListing first = this.store.list("b/", "", 2);
		assertThat(first.objects()).extracting(ObjectInfo::key).containsExactly("b/1", "b/2");
		assertThat(first.truncated()).isTrue();
		ObjectListing second = this.store.list("b/", "b/2", 2);
		assertThat(second.objects()).extracting(ObjectInfo::key).containsExactly("b/3");
		assertThat(second.truncated()).isFalse();
		assertThat(this.store.list("", "", ObjectStore.MAX_LIST).objects()).extracting(ObjectInfo::key)
			.containsExactly("a/1", "b", "b/1", "b/2", "b/3", "c/1");
		assertThat(this.store.list("zzz", "", 10).objects()).isEmpty();
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.list("", "", ObjectStore.MAX_LIST + 1))
			.withMessage("limit must be between 1 and 256, got 257");
	}

	@Test
	void readsARangeUpToTheObjectsEnd() {
		byte[] data = bytes(1000, 3);
		this.store.put("r", BulkData.wrap(data));
		assertThat(this.store.read("r", 10, 5).toByteArray()).containsExactly(data[10], data[11], data[12], data[13],
				data[14]);
		assertThat(this.store.read("r", 990, 100).length()).isEqualTo(10);
		assertThat(this.store.read("r", 1000, 100).length()).isZero();
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.read("r", 1001, 1))
			.withMessageContaining("offset must be between 0 and the object's size 1000, got 1001");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.read("r", 0, ObjectStore.MAX_READ_BYTES + 1))
			.withMessageContaining("length must be between 0 and");
	}

	@Test
	void refusesKeysThatAreEmptyTooLongOrHoldControlCharacters() {
		BulkData one = BulkData.wrap(new byte[1]);
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.put("", one)).withMessage("An object key must not be empty");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.put("é".repeat(129), one))
			.withMessage("Object key of 258 bytes is longer than the 256-byte limit");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.put("a\nb", one))
			.withMessageContaining("control characters");
	}

	@Test
	void limitsAreChecked() {
		assertThatIllegalArgumentException().isThrownBy(() -> new StoreLimits(ObjectStore.MAX_OBJECT_BYTES + 1, 1L << 40))
			.withMessageContaining("demo.store.max-object-size must be between 0 B and 32MB");
		assertThatIllegalArgumentException().isThrownBy(() -> new StoreLimits(1024, 1023))
			.withMessageContaining("demo.store.capacity");
	}

	static byte[] bytes(int length, int seed) {
		byte[] data = new byte[length];
		for (int i = 0; i < length; i++) {
			data[i] = (byte) (i * 31 + seed);
		}
		return data;
	}

}
