package io.rpcrdma.service.e2e;

import io.rpcrdma.service.Idempotent;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;

/**
 * Version 2 of {@link Inventory}'s program, served beside version 1.
 */
@RpcProgram(number = 0x20000500, version = 2, name = "Inventory")
public interface InventoryV2 {

	@RpcProcedure(1)
	@Idempotent
	long totalValueCents();

}
