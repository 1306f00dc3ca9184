package io.rpcrdma.spring.boot.test.slice;

import org.springframework.stereotype.Component;

/**
 * A component an RPC slice leaves out.
 */
@Component
class UnrelatedComponent {

}
