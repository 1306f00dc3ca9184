/**
 * Java interfaces as ONC RPC programs (RFC 5531): {@link io.rpcrdma.service.RpcProgram},
 * {@link io.rpcrdma.service.RpcProcedure}, {@link io.rpcrdma.service.Idempotent} and
 * {@link io.rpcrdma.service.Bulk} declare a service; {@link io.rpcrdma.service.ServiceIntrospector}
 * validates it and builds a {@link io.rpcrdma.service.ServiceDescriptor} with every
 * procedure's codecs. {@link io.rpcrdma.service.ServiceExporter} serves implementations
 * through the server's {@link io.rpcrdma.server.ProgramRegistry} (several versions of a
 * program side by side); {@link io.rpcrdma.service.ServiceClientFactory} creates client
 * proxies calling through an {@link io.rpcrdma.client.RpcCaller}. A method's exception
 * travels back as a {@link io.rpcrdma.service.RemoteFault} in its
 * {@link io.rpcrdma.service.ProcedureResults}. Codecs for Java values live in
 * {@link io.rpcrdma.service.codec}; the export to the XDR language in
 * {@link io.rpcrdma.service.xdrlang}.
 */
package io.rpcrdma.service;
