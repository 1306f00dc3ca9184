/**
 * The {@code rpcrdma} health contributor.
 */
package io.rpcrdma.spring.boot.autoconfigure.health;
