/**
 * Java interfaces as ONC RPC programs (RFC 5531): {@link io.rpcrdma.service.RpcProgram},
 * {@link io.rpcrdma.service.RpcProcedure}, {@link io.rpcrdma.service.Idempotent} and
 * {@link io.rpcrdma.service.Bulk} declare a service; {@link io.rpcrdma.service.ServiceIntrospector}
 * validates it and builds a {@link io.rpcrdma.service.ServiceDescriptor} with every
 * procedure's codecs; a {@link io.rpcrdma.service.ProgramCatalog} holds several versions of a
 * program side by side for dispatch. Codecs for Java values live in
 * {@link io.rpcrdma.service.codec}; the export to the XDR language in
 * {@link io.rpcrdma.service.xdrlang}.
 */
package io.rpcrdma.service;
