package io.rpcrdma.service;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives an exception class the stable error code it travels with when a service method
 * throws it ({@link RemoteFault#code()}). Without it, the code is derived from the class's
 * fully qualified name, which changes when the class is renamed or moved; exceptions that
 * clients in other languages act upon declare their code here.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RpcFault {

	/**
	 * @return the error code, any value but 0
	 */
	int code();

}
