package io.rpcrdma.demo.store;

import io.rpcrdma.service.Bulk;
import io.rpcrdma.service.BulkData;
import io.rpcrdma.service.Idempotent;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;

/**
 * A small object store as an ONC RPC program (RFC 5531): blobs by key, from a few bytes to
 * tens of MiB. Object contents are {@link Bulk} so that large ones travel by RDMA Read
 * (put) and RDMA Write (get) chunks rather than inline (RFC 8166 §3.4, §6.1); metadata calls
 * are small and travel inline.
 */
@RpcProgram(number = 0x20000900, version = 1, name = "ObjectStore")
public interface ObjectStore {

	/**
	 * The largest object any store accepts: the XDR bound of object contents. A store may be
	 * configured with a lower limit ({@code demo.store.max-object-size}).
	 */
	int MAX_OBJECT_BYTES = 32 << 20;

	/** The longest key, in UTF-8 bytes. */
	int MAX_KEY_BYTES = 256;

	/** The most bytes one {@link #read} call returns. */
	int MAX_READ_BYTES = 1 << 20;

	/** The most objects one {@link #list} call returns. */
	int MAX_LIST = 256;

	/**
	 * Stores an object, replacing one with the same key.
	 * @param key the key: 1 to {@value #MAX_KEY_BYTES} UTF-8 bytes, no control characters
	 * @param contents the contents
	 * @return what was stored
	 * @throws ObjectTooLargeException if the contents exceed the store's limit
	 * @throws StoreFullException if the store has no room left for them
	 * @throws IllegalArgumentException if the key is not valid
	 */
	@RpcProcedure(1)
	ObjectInfo put(String key, @Bulk(maxBytes = MAX_OBJECT_BYTES) BulkData contents);

	/**
	 * Reads a whole object. The client offers a Write chunk as large as the largest object
	 * (RFC 8166 §3.4.6: a requester sizes Write chunks for the largest possible result), and
	 * the server prepares a reply that large: for objects known to be small, {@link #read} is
	 * cheaper.
	 * @param key the key
	 * @return the contents
	 * @throws ObjectNotFoundException if there is no such object
	 */
	@RpcProcedure(2)
	@Idempotent
	@Bulk(maxBytes = MAX_OBJECT_BYTES)
	BulkData get(String key);

	/**
	 * @param key the key
	 * @return the object's metadata
	 * @throws ObjectNotFoundException if there is no such object
	 */
	@RpcProcedure(3)
	@Idempotent
	ObjectInfo stat(String key);

	/**
	 * Lists objects in key order.
	 * @param prefix only keys starting with it ({@code ""} for all)
	 * @param after only keys after it, to page on from a truncated listing ({@code ""} to start)
	 * @param limit the most objects to return, 1 to {@value #MAX_LIST}
	 * @return the objects, and whether more follow
	 */
	@RpcProcedure(4)
	@Idempotent
	ObjectListing list(String prefix, String after, int limit);

	/**
	 * @param key the key
	 * @return whether there was such an object
	 */
	@RpcProcedure(5)
	@Idempotent
	boolean delete(String key);

	/**
	 * Reads part of an object, at most {@value #MAX_READ_BYTES} bytes: like NFS READ, the way
	 * to fetch objects of known, moderate size (from {@link #stat} or {@link #list}) or a
	 * large one piece by piece.
	 * @param key the key
	 * @param offset where to start, 0 to the object's size
	 * @param length the most bytes to return, 0 to {@value #MAX_READ_BYTES}
	 * @return the bytes from {@code offset}: fewer than {@code length} at the object's end
	 * @throws ObjectNotFoundException if there is no such object
	 * @throws IllegalArgumentException if the offset or length is out of range
	 */
	@RpcProcedure(7)
	@Idempotent
	@Bulk(maxBytes = MAX_READ_BYTES)
	BulkData read(String key, long offset, int length);

	/**
	 * Tells the calling client of every change under {@code prefix} from now on, by calling
	 * its {@link StoreWatcher} back on the same connection (RFC 8167), until the connection
	 * closes or the watcher says it has had enough.
	 * @param prefix the keys to watch ({@code ""} for all)
	 * @return the objects under the prefix now
	 * @throws IllegalStateException if the store has as many watchers as it takes
	 */
	@RpcProcedure(8)
	int watch(String prefix);

	/** @return the store's limits and what it holds */
	@RpcProcedure(6)
	@Idempotent
	StoreStatus status();

}
