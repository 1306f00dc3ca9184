package io.rpcrdma.demo.store;

import java.util.List;

/**
 * One page of a listing.
 *
 * @param objects the objects, in key order
 * @param truncated whether more objects match: list again after the last key
 */
public record ObjectListing(List<ObjectInfo> objects, boolean truncated) {

}
