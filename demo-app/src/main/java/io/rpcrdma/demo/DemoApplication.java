package io.rpcrdma.demo;

import io.rpcrdma.RpcRdmaVersion;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The rpcrdma demo. For now it starts, says which rpcrdma it carries, and exits; the
 * object-store workload arrives with the demo issue.
 */
@SpringBootApplication
public class DemoApplication {

	public static void main(String[] args) {
		SpringApplication.run(DemoApplication.class, args);
		System.out.println(banner());
	}

	static String banner() {
		return "rpcrdma " + RpcRdmaVersion.get() + " — RPC-over-RDMA (RFC 5666 / RFC 8166 / Version Two) demo";
	}

}
