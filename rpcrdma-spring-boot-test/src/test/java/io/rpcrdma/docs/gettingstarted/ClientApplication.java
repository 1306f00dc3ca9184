package io.rpcrdma.docs.gettingstarted;

import io.rpcrdma.spring.boot.client.ImportRpcClients;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Component;

@SpringBootApplication
@ImportRpcClients(client = "greeter", types = Greeter.class)
public class ClientApplication {

    public static void main(String[] args) {
        SpringApplication.run(ClientApplication.class, args);
    }

}

@Component
class Welcome {

    private final Greeter greeter;

    Welcome(Greeter greeter) {
        this.greeter = greeter;
    }

    String welcome(String name) {
        return this.greeter.greet(name);   // an ONC RPC call over RDMA
    }

}
