/**
 * XDR (RFC 4506) codecs for Java values, built once per type by
 * {@link io.rpcrdma.service.codec.CodecRegistry} with method handles, bounded by
 * {@link io.rpcrdma.service.codec.CodecLimits} when decoding, and extensible through
 * {@link io.rpcrdma.service.codec.XdrCodecProvider}.
 */
package io.rpcrdma.service.codec;
