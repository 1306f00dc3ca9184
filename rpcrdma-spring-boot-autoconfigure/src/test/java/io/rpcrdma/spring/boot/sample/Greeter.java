package io.rpcrdma.spring.boot.sample;

import java.util.concurrent.CompletableFuture;

import io.rpcrdma.service.Idempotent;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;

/**
 * The service the Spring tests serve and call.
 */
@RpcProgram(number = 0x20000800, version = 1, name = "Greeter")
public interface Greeter {

	@RpcProcedure(1)
	@Idempotent
	String greet(String name);

	/** Waits until {@link GreeterService#release} opens; for shutdown tests. */
	@RpcProcedure(2)
	CompletableFuture<String> slowGreet(String name);

}
