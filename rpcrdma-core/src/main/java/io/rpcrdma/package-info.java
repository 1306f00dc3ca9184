/**
 * The root of rpcrdma-core: what the library says of itself ({@link
 * io.rpcrdma.RpcRdmaVersion}, the version stamped at build time). The layers live in the
 * sub-packages, bottom up: {@code verbs} (the provider SPI, in rpcrdma-verbs; the providers in
 * rpcrdma-siw and rpcrdma-disni), {@code memory}, {@code xdr}, {@code oncrpc}, {@code
 * protocol}, {@code transport}, {@code client} and {@code server}, {@code service}; {@code
 * log} (in rpcrdma-verbs) holds helpers any of them may share.
 */
package io.rpcrdma;
