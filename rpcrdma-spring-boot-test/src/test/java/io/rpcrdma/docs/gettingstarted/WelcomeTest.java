package io.rpcrdma.docs.gettingstarted;

import io.rpcrdma.spring.boot.test.AutoConfigureRpcRdma;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(properties = { "rpcrdma.provider=siw", "rpcrdma.server.enabled=false",
        "rpcrdma.client.greeter.address=rpc-1.example:20049", "rpcrdma.client.greeter.call-timeout=5s" })
@AutoConfigureRpcRdma
class WelcomeTest {

    @Autowired
    Welcome welcome;

    @Test
    void welcomes() {
        assertThat(this.welcome.welcome("Ada")).isEqualTo("Hello, Ada");
    }

}
