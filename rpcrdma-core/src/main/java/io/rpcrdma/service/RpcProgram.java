package io.rpcrdma.service;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a Java interface as one version of an ONC RPC program (RFC 5531 §7).
 * <p>
 * Without an explicit {@link #number()} the program number is derived from the interface's
 * fully qualified name (see {@link ProgramNumbers#derive(String)}): stable across runs and
 * machines, inside the user-defined range {@code 0x20000000–0x3FFFFFFF} (RFC 5531 §7.3), but
 * it changes when the interface is renamed or moved. A service that evolves (new versions
 * beside old ones, renames, peers written in other languages from an exported {@code .x}
 * file) should give the number explicitly, and its procedures explicit
 * {@link RpcProcedure} numbers too.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RpcProgram {

	/** Marks "derive the number from the interface name". */
	int DERIVED = 0;

	/**
	 * The program number, read as an unsigned 32-bit integer; {@link #DERIVED} (0) derives
	 * it from the interface name.
	 * @return the program number
	 */
	int number() default DERIVED;

	/**
	 * The program version (RFC 5531 §7.2); several interfaces may declare the same program
	 * with different versions, served side by side.
	 * @return the version, read as an unsigned 32-bit integer
	 */
	int version() default 1;

	/**
	 * A name for logs and the exported XDR language file; the interface's simple name when
	 * empty.
	 * @return the name
	 */
	String name() default "";

}
