/**
 * Auto-configuration of the service binding shared by exported services and client proxies:
 * the XDR codec registry and the introspector that turns Java interfaces into ONC RPC programs.
 */
package io.rpcrdma.spring.boot.autoconfigure.service;
