package io.rpcrdma.service.codec;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Lets a reference be {@code null}: it is encoded as XDR optional-data {@code T *} (RFC 4506
 * §4.19), a boolean followed by the value when present. Without it only boxed primitives and
 * {@link java.util.Optional} are optional; a {@code null} String, array, collection or struct
 * is rejected on encoding. On a method it applies to the result.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.PARAMETER, ElementType.METHOD })
public @interface XdrOptional {
}
