package io.rpcrdma.service;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks opaque data ({@code byte[]}, {@link java.nio.ByteBuffer}, or a type whose codec says
 * it is DDP-eligible) as bulk: the transport may move it by RDMA Read or Write chunks
 * instead of inline (RFC 8166 §6.1 "DDP-eligibility"). On a parameter it marks that
 * argument; on a method, the result.
 * <p>
 * {@link #maxBytes()} also bounds what a receiver accepts for it, in place of the codec
 * registry's general opaque limit.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.PARAMETER, ElementType.METHOD })
public @interface Bulk {

	/**
	 * @return the largest size in bytes this item may have
	 */
	int maxBytes();

	/**
	 * On a method whose result is {@link BulkData}: the result is lent, not copied. It is a
	 * view of the registered buffer the server's RDMA Write placed it in (RFC 8166 §3.4.6), so
	 * a bulk result costs the client no allocation and no copy; the caller must
	 * {@link BulkData#close() close} it (try-with-resources) to give the buffer back to the
	 * pool, and must not read it afterwards. A result that came inline (or inside a
	 * {@code krb5i}/{@code krb5p} body) is a copy, whose {@code close()} does nothing. Only
	 * for a {@code BulkData} result; the default copies.
	 * @return whether the result is lent
	 */
	boolean lend() default false;

}
