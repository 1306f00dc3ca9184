package io.rpcrdma.spring.boot.test.slice;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application the slice tests find: an {@code @RpcService} and an unrelated component.
 */
@SpringBootApplication
public class SliceApplication {

}
