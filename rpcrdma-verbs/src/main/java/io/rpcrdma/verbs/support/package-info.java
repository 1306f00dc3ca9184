/**
 * What every provider does the same way, with the same messages: closed checks and teardown
 * order, a domain's regions, the checks of a post, a registration and a connect, completion
 * notification. Provider helpers: nothing outside {@code io.rpcrdma.verbs} names them.
 */
package io.rpcrdma.verbs.support;
