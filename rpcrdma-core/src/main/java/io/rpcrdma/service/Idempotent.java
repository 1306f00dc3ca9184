package io.rpcrdma.service;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a remote method whose repeated execution has the same effect as one execution, so a
 * client may retransmit it after a lost connection and a server need not keep its reply in
 * the duplicate-request cache (RFC 5531 §8 leaves at-most-once semantics to the
 * application; RFC 8166 §4.3.4 retransmits after reconnection).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Idempotent {
}
