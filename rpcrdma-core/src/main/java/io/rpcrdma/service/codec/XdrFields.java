package io.rpcrdma.service.codec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a plain class an XDR struct (RFC 4506 §4.14) whose members are the named fields in
 * the given order. Java does not promise the order of {@link Class#getDeclaredFields()}, so
 * a class states it (records need not: their components have a declared order).
 * <p>
 * Decoding uses a constructor whose parameter types are the fields' types in this order if
 * there is one, otherwise the no-argument constructor and then sets the (non-final) fields.
 * Fields may be private; in a named module their package must be open to rpcrdma.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface XdrFields {

	/** @return the field names, in wire order */
	String[] value();

}
