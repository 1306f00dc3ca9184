package io.rpcrdma.benchmarks.attack;

import java.nio.ByteBuffer;

import io.rpcrdma.service.Bulk;
import io.rpcrdma.service.BulkData;
import io.rpcrdma.service.Idempotent;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;

/**
 * What the attacked server serves to its honest clients, and what its attackers abuse: a small
 * echo and bulk data either way, sized for the library's default memory pool (chunks up to 16
 * MiB), unlike the comparison's {@code BenchService} whose 64 MiB results need a larger pool.
 * The echo is not idempotent, the service layer's default, so that every honest small call
 * goes through the server's duplicate request cache (RFC 5531 §9) where the AUTH_SYS flood
 * ({@link AuthSysFlood}) meets it.
 */
@RpcProgram(number = AttackedService.PROGRAM, version = AttackedService.VERSION, name = "UnderAttack")
public interface AttackedService {

	/** The program number. */
	int PROGRAM = 0x20000A02;

	/** The program version. */
	int VERSION = 1;

	/** Procedure number of {@link #echo}. */
	int ECHO = 1;

	/** Procedure number of {@link #put}. */
	int PUT = 2;

	/** Procedure number of {@link #get}. */
	int GET = 3;

	/** The largest bulk argument: the default pool's largest chunk. */
	int MAX_ARGUMENT = 16 << 20;

	/** The largest bulk result: the honest 1 MiB. */
	int MAX_RESULT = 1 << 20;

	/**
	 * @param data a small request
	 * @return the same bytes
	 */
	@RpcProcedure(ECHO)
	byte[] echo(byte[] data);

	/**
	 * Takes bulk data the client pushes by Read chunk (RFC 8166 §3.4.5).
	 * @param data the bytes
	 * @return how many bytes arrived
	 */
	@RpcProcedure(PUT)
	@Idempotent
	int put(@Bulk(maxBytes = MAX_ARGUMENT) BulkData data);

	/**
	 * Sends bulk data the client pulls, by Write chunk (RFC 8166 §3.4.6), or by Read chunk of
	 * the reply to a requester that offered none (RFC 5666 §3.4, when the server is configured so).
	 * @param length how many bytes
	 * @return that many bytes
	 */
	@RpcProcedure(GET)
	@Idempotent
	@Bulk(maxBytes = MAX_RESULT)
	ByteBuffer get(int length);

}
