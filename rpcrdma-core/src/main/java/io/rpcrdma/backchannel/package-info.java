/**
 * The backward direction of RFC 8167 as the client serves it: the programs a client offers its
 * server on the same connection ({@link io.rpcrdma.backchannel.CallbackServices}) and the
 * handler that runs them through the server's dispatcher. It stands above both
 * {@code io.rpcrdma.client} and {@code io.rpcrdma.server}, so that neither of those names the
 * other for it.
 */
package io.rpcrdma.backchannel;
