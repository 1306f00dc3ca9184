/**
 * Auto-configuration of the RPC server: its settings from {@code rpcrdma.server.*}, its
 * security policies, customizers, and the lifecycle that starts it with the application
 * context and stops it gracefully.
 */
package io.rpcrdma.spring.boot.autoconfigure.server;
