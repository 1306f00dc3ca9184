/**
 * The root of rpcrdma-core: what the library says of itself ({@link
 * io.rpcrdma.RpcRdmaVersion}, the version stamped at build time). The layers live in the
 * sub-packages, bottom up: {@code verbs}, {@code memory}, {@code xdr}, {@code oncrpc}, {@code
 * protocol}, {@code transport}, {@code client} and {@code server}, {@code service}; {@code
 * log} holds helpers any of them may share.
 */
package io.rpcrdma;
