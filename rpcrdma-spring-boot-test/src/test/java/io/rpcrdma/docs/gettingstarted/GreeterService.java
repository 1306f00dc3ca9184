package io.rpcrdma.docs.gettingstarted;

import io.rpcrdma.spring.boot.RpcService;

@RpcService
class GreeterService implements Greeter {

    @Override
    public String greet(String name) {
        return "Hello, " + name;
    }

}
