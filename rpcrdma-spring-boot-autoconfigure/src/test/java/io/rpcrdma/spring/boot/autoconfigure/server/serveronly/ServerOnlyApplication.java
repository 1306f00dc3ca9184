package io.rpcrdma.spring.boot.autoconfigure.server.serveronly;

import io.rpcrdma.spring.boot.RpcService;
import io.rpcrdma.spring.boot.autoconfigure.fixture.Greeter;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * An application that serves RPC and nothing else, run in a JVM of its own by
 * {@code ServerOnlyApplicationTest}: {@code main} returns once the context is refreshed, as
 * any Spring Boot application's does, and says so on standard output.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ServerOnlyApplication {

	/** The line written once {@code main} has nothing left to do. */
	public static final String MAIN_RETURNS = "ServerOnlyApplication.main returns";

	@Bean
	@RpcService
	Greeter greeter() {
		return new Greeter.Friendly();
	}

	public static void main(String[] args) {
		SpringApplication application = new SpringApplication(ServerOnlyApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.run(args);
		System.out.println(MAIN_RETURNS);
	}

}
