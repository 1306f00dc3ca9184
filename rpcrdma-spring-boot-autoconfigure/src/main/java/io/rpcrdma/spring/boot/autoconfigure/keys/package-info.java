/**
 * Unknown {@code rpcrdma.*} keys: which keys the starter binds, and the start-up report of
 * configured keys that none of its settings binds.
 */
package io.rpcrdma.spring.boot.autoconfigure.keys;
