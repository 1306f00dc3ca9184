package io.rpcrdma.docs.gettingstarted;

import io.rpcrdma.spring.boot.test.LocalRpcRdmaPort;
import io.rpcrdma.spring.boot.test.RpcRdmaTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

@RpcRdmaTest(clients = Greeter.class)
class GreeterServiceTest {

    @Autowired
    Greeter greeter;              // the client proxy, not the implementation

    @LocalRpcRdmaPort
    int port;                     // where the slice's server listens

    @Test
    void greets() {
        assertThat(this.greeter.greet("Ada")).isEqualTo("Hello, Ada");
    }

}
