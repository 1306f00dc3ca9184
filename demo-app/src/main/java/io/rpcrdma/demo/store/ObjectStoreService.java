package io.rpcrdma.demo.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.zip.CRC32C;

import io.rpcrdma.demo.Sizes;
import io.rpcrdma.service.BulkData;

/**
 * The object store itself: objects in memory, in key order, within a per-object limit and a
 * total capacity. Thread-safe; the transport's worker threads call it concurrently.
 */
public class ObjectStoreService implements ObjectStore {

	private final NavigableMap<String, StoredObject> objects = new ConcurrentSkipListMap<>();

	private final StoreLimits limits;

	private final Clock clock;

	private final StoreWatchers watchers;

	/** Bytes held, updated under {@code this} together with {@link #objects}. */
	private long bytes;

	/**
	 * @param limits the largest object and the capacity
	 * @param clock stamps stored objects
	 */
	public ObjectStoreService(StoreLimits limits, Clock clock) {
		this(limits, clock, StoreWatchers.none());
	}

	/**
	 * @param limits the largest object and the capacity
	 * @param clock stamps stored objects
	 * @param watchers the clients told of changes
	 */
	public ObjectStoreService(StoreLimits limits, Clock clock, StoreWatchers watchers) {
		this.limits = Objects.requireNonNull(limits, "limits");
		this.clock = Objects.requireNonNull(clock, "clock");
		this.watchers = Objects.requireNonNull(watchers, "watchers");
	}

	@Override
	public int watch(String prefix) {
		this.watchers.watch(prefix);
		return this.objects.subMap(prefix, true, prefix + Character.MAX_VALUE, true).size();
	}

	/** @return the clients watching */
	public StoreWatchers watchers() {
		return this.watchers;
	}

	@Override
	public ObjectInfo put(String key, BulkData contents) {
		checkKey(key);
		Objects.requireNonNull(contents, "contents");
		int size = contents.length();
		if (size > this.limits.maxObjectBytes()) {
			throw new ObjectTooLargeException("Object '" + key + "' is " + Sizes.format(size)
					+ ", larger than this store's limit of " + Sizes.format(this.limits.maxObjectBytes())
					+ " (demo.store.max-object-size)");
		}
		// The argument is a view of receive memory, valid only during this call: copy it.
		byte[] data = new byte[size];
		contents.buffer().get(data);
		ObjectInfo info = new ObjectInfo(key, size, crc32c(ByteBuffer.wrap(data)), this.clock.millis());
		synchronized (this) {
			StoredObject previous = this.objects.get(key);
			long after = this.bytes - ((previous != null) ? previous.data().length : 0) + size;
			if (after > this.limits.capacityBytes()) {
				throw new StoreFullException("No room for object '" + key + "' of " + Sizes.format(size) + ": the store holds "
						+ Sizes.format(this.bytes) + " of its " + Sizes.format(this.limits.capacityBytes())
						+ " capacity (delete objects or raise demo.store.capacity)");
			}
			this.objects.put(key, new StoredObject(info, data));
			this.bytes = after;
		}
		this.watchers.changed(StoreWatcher.PUT, key, size);
		return info;
	}

	@Override
	public BulkData get(String key) {
		return BulkData.wrap(find(key).data());
	}

	@Override
	public BulkData read(String key, long offset, int length) {
		if (length < 0 || length > MAX_READ_BYTES) {
			throw new IllegalArgumentException("read length must be between 0 and " + MAX_READ_BYTES + ", got " + length);
		}
		byte[] data = find(key).data();
		if (offset < 0 || offset > data.length) {
			throw new IllegalArgumentException(
					"read offset must be between 0 and the object's size " + data.length + ", got " + offset);
		}
		int count = (int) Math.min(length, data.length - offset);
		return BulkData.wrap(ByteBuffer.wrap(data, (int) offset, count));
	}

	@Override
	public ObjectInfo stat(String key) {
		return find(key).info();
	}

	@Override
	public ObjectListing list(String prefix, String after, int limit) {
		Objects.requireNonNull(prefix, "prefix");
		Objects.requireNonNull(after, "after");
		if (limit < 1 || limit > MAX_LIST) {
			throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIST + ", got " + limit);
		}
		String from = (after.compareTo(prefix) > 0) ? after : prefix;
		boolean inclusive = !from.equals(after) || after.isEmpty();
		List<ObjectInfo> page = new ArrayList<>(Math.min(limit, 16));
		for (Map.Entry<String, StoredObject> entry : this.objects.tailMap(from, inclusive).entrySet()) {
			if (!entry.getKey().startsWith(prefix)) {
				break;
			}
			if (page.size() == limit) {
				return new ObjectListing(page, true);
			}
			page.add(entry.getValue().info());
		}
		return new ObjectListing(page, false);
	}

	@Override
	public boolean delete(String key) {
		checkKey(key);
		synchronized (this) {
			StoredObject removed = this.objects.remove(key);
			if (removed == null) {
				return false;
			}
			this.bytes -= removed.data().length;
		}
		this.watchers.changed(StoreWatcher.DELETE, key, 0);
		return true;
	}

	@Override
	public synchronized StoreStatus status() {
		return new StoreStatus(this.objects.size(), this.bytes, this.limits.maxObjectBytes(), this.limits.capacityBytes());
	}

	private StoredObject find(String key) {
		checkKey(key);
		StoredObject object = this.objects.get(key);
		if (object == null) {
			throw ObjectNotFoundException.forKey(key);
		}
		return object;
	}

	private static void checkKey(String key) {
		if (key == null || key.isEmpty()) {
			throw new IllegalArgumentException("An object key must not be empty");
		}
		int length = key.getBytes(StandardCharsets.UTF_8).length;
		if (length > MAX_KEY_BYTES) {
			throw new IllegalArgumentException(
					"Object key of " + length + " bytes is longer than the " + MAX_KEY_BYTES + "-byte limit");
		}
		for (int i = 0; i < key.length(); i++) {
			if (Character.isISOControl(key.charAt(i))) {
				throw new IllegalArgumentException("Object key must not contain control characters (one at index " + i + ")");
			}
		}
	}

	/**
	 * @param data bytes between position and limit (not consumed)
	 * @return their CRC-32C
	 */
	public static long crc32c(ByteBuffer data) {
		CRC32C crc = new CRC32C();
		crc.update(data.duplicate());
		return crc.getValue();
	}

	private record StoredObject(ObjectInfo info, byte[] data) {
	}

}
