package io.rpcrdma.demo;

import io.rpcrdma.RpcRdmaVersion;
import io.rpcrdma.demo.store.ObjectStore;
import io.rpcrdma.spring.boot.client.ImportRpcClients;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The rpcrdma demo: an object store served over RPC-over-RDMA and a client that exercises
 * it. Without a profile it serves on 127.0.0.1 over software iWARP, runs a short workload
 * against itself, prints the results and keeps serving with actuator; profile
 * {@code server} only serves, profile {@code client} calls a remote store and exits.
 */
@SpringBootApplication
@ImportRpcClients(client = DemoConfiguration.CLIENT, types = ObjectStore.class)
public class DemoApplication {

	public static void main(String[] args) {
		ConfigurableApplicationContext context = SpringApplication.run(DemoApplication.class, args);
		int status = context.getBean(DemoRunner.class)
			.run(context.getBean(ApplicationArguments.class).getNonOptionArgs());
		if (status != 0 || context.getBean(DemoProperties.class).getMode() == DemoProperties.Mode.CLIENT) {
			System.exit(SpringApplication.exit(context, () -> status));
		}
	}

	static String banner() {
		return "rpcrdma " + RpcRdmaVersion.get() + " — RPC-over-RDMA (RFC 5666 / RFC 8166 / Version Two) demo";
	}

}
