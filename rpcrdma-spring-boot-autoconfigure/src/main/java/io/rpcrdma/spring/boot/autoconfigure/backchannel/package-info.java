/**
 * Auto-configuration of the backward direction (RFC 8167): the {@code @RpcCallbackService}
 * beans a client serves to its server on the same connection.
 */
package io.rpcrdma.spring.boot.autoconfigure.backchannel;
