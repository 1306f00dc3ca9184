package io.rpcrdma.xdr;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs a test once for every {@link BufferKind} an encoder writes into: heap, heap at an
 * array offset, and direct.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@EnumSource(value = BufferKind.class, names = { "HEAP", "HEAP_OFFSET", "DIRECT" })
public @interface EachWritableBuffer {

}
