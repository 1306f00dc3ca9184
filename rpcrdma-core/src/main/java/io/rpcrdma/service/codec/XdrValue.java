package io.rpcrdma.service.codec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The value an enum constant has on the wire (RFC 4506 §4.3). Either every constant of an
 * enum has one or none does; without them the constants are numbered 0..n-1 in declaration
 * order, so reordering or inserting constants then changes the wire format. Enums that
 * evolve should give their values explicitly.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface XdrValue {

	/** @return the XDR enum value */
	int value();

}
