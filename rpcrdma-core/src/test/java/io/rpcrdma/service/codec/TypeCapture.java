package io.rpcrdma.service.codec;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/** Captures a generic type: {@code new TypeCapture<List<String>>() { }.type()}. */
abstract class TypeCapture<T> {

	Type type() {
		return ((ParameterizedType) getClass().getGenericSuperclass()).getActualTypeArguments()[0];
	}

}
