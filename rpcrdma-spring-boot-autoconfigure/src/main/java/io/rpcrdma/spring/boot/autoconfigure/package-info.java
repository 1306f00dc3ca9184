/**
 * The {@code rpcrdma.*} configuration properties, their validation and their mapping to the
 * core's transport settings, shared by the auto-configurations in the sub-packages (one per
 * concern).
 */
package io.rpcrdma.spring.boot.autoconfigure;
