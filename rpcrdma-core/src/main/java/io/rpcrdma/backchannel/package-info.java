/**
 * The backward direction of RFC 8167, where a server calls the client that is calling it on the
 * same connection: the programs a client serves ({@link io.rpcrdma.backchannel.CallbackServices},
 * run through the server's dispatcher) and the caller a server's handler gets for its client
 * ({@link io.rpcrdma.backchannel.Backchannels}, an RPC client over the transport's backward
 * calls). It stands above both {@code io.rpcrdma.client} and {@code io.rpcrdma.server}, so that
 * neither of those names the other.
 */
package io.rpcrdma.backchannel;
