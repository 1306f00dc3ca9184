package io.rpcrdma.benchmarks;

import io.rpcrdma.service.Idempotent;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;

/**
 * The smallest useful service: two ints in, one out.
 */
@RpcProgram(number = 0x20000A00, version = 1, name = "Calculator")
public interface Calculator {

	/** The program's number, for calls made without the proxy. */
	int PROGRAM = 0x20000A00;

	/** The procedure number of {@link #add}. */
	int ADD = 1;

	@RpcProcedure(ADD)
	@Idempotent
	int add(int a, int b);

}
