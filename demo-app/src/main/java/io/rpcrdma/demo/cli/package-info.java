/**
 * The demo client's commands against the store, and the messages it prints when the store
 * cannot be reached.
 */
package io.rpcrdma.demo.cli;
