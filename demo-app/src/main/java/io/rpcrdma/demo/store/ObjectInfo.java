package io.rpcrdma.demo.store;

/**
 * An object's metadata.
 *
 * @param key the key
 * @param size the size in bytes
 * @param crc32c the CRC-32C of the contents, for clients to check what they read
 * @param storedAtMillis when it was stored, in milliseconds since the epoch
 */
public record ObjectInfo(String key, long size, long crc32c, long storedAtMillis) {

}
