package io.rpcrdma.service;

import java.lang.reflect.Type;
import java.util.Objects;

import io.rpcrdma.service.codec.XdrCodec;

/**
 * One argument of a remote procedure.
 *
 * @param index its position, from 0
 * @param name its Java name ({@code argN} unless compiled with {@code -parameters})
 * @param type its resolved generic type
 * @param codec how it is encoded
 * @param bulk whether it is DDP-eligible bulk data ({@link Bulk})
 */
public record ParameterDescriptor(int index, String name, Type type, XdrCodec<?> codec, BulkSpec bulk) {

	public ParameterDescriptor {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(codec, "codec");
		Objects.requireNonNull(bulk, "bulk");
	}

}
