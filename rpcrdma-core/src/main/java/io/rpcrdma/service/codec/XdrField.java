package io.rpcrdma.service.codec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes the annotated field a member of its class's XDR struct, at the given position; the
 * alternative to {@link XdrFields} on the class. Orders must be distinct; members are
 * written in ascending order.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface XdrField {

	/** @return the position of this member */
	int order();

}
