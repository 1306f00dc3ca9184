/**
 * The {@code loopback} provider: queue pairs of in-JVM hosts on one fabric, moving bytes
 * between registered regions directly, for tests and same-process calls. A provider package:
 * nothing outside {@code io.rpcrdma.verbs} names it.
 */
package io.rpcrdma.verbs.loopback;
