package io.rpcrdma.service.e2e;

import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;

/**
 * A version of {@link Inventory}'s program the server does not serve.
 */
@RpcProgram(number = 0x20000500, version = 3, name = "Inventory")
public interface InventoryV3 {

	@RpcProcedure(1)
	int ping();

}
