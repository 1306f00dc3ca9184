package io.rpcrdma.service;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives a remote method its procedure number. Procedure 0 is the NULL procedure every
 * program has by convention (RFC 5531 §12.1: no arguments, no results, used to ping), so
 * numbers start at 1.
 * <p>
 * Either every remote method of an interface carries this annotation or none does; without
 * it, the methods are numbered 1..n in the order of their canonical signatures (see
 * {@link ServiceIntrospector}). Explicit numbers are the way for services that evolve: adding
 * a method then never renumbers the others.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RpcProcedure {

	/**
	 * @return the procedure number, at least 1, read as an unsigned 32-bit integer
	 */
	int value();

}
