package io.rpcrdma.spring.boot.test;

import org.springframework.boot.test.autoconfigure.TestSliceTestContextBootstrapper;

/**
 * Bootstraps {@link RpcRdmaTest @RpcRdmaTest}: applies its {@code properties}.
 */
class RpcRdmaTestContextBootstrapper extends TestSliceTestContextBootstrapper<RpcRdmaTest> {

}
