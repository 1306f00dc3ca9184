package io.rpcrdma.docs.gettingstarted;

import io.rpcrdma.service.Idempotent;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;

@RpcProgram(number = 0x20000800, version = 1)
public interface Greeter {

    @RpcProcedure(1) @Idempotent
    String greet(String name);

}
