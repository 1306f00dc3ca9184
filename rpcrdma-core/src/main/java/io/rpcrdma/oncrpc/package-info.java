/**
 * ONC RPC Version 2 messages (RFC 5531): immutable records for calls, replies and
 * authentication, and {@link io.rpcrdma.oncrpc.RpcMessageCodec} to put them on the wire.
 * <p>
 * Only the RPC header is modelled. Procedure arguments and results are opaque to this layer:
 * decoding a message leaves the {@link io.rpcrdma.xdr.XdrDecoder} positioned at them, and
 * encoding writes only the header so the caller writes them next. There is no record
 * marking (RFC 5531 §11): RPC-over-RDMA delimits messages itself.
 */
package io.rpcrdma.oncrpc;
