/**
 * Ahead-of-time processing support: the runtime hints rpcrdma needs in a GraalVM native image
 * (JDK proxies of client interfaces, reflection on service interfaces, their parameter and
 * result types, and the implementations, the provider factories {@code ServiceLoader} finds)
 * and their registration during Spring's AOT processing.
 */
package io.rpcrdma.spring.boot.autoconfigure.aot;
