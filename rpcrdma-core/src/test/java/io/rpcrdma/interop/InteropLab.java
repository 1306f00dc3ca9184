package io.rpcrdma.interop;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class that runs against the interop lab's Linux guest: its methods may take a
 * {@link LabGuest} parameter. The guest boots once per test run and stops when the run ends.
 * These tests are tagged {@code interop}: the plain build leaves them out, {@code -Pinterop}
 * runs them (docs/interop.md).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag("interop")
@ExtendWith(LabExtension.class)
public @interface InteropLab {

}
