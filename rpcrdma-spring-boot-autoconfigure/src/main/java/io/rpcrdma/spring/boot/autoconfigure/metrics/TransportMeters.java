package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.function.Function;
import java.util.function.ToLongFunction;

import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.rpcrdma.transport.RdmaErrorCounts;
import io.rpcrdma.transport.TransportStats;

/**
 * Counters of what RPC-over-RDMA connections conveyed ({@link TransportStats}), under one
 * prefix ({@code rpcrdma.server.transport} or {@code rpcrdma.client.transport}).
 */
final class TransportMeters {

	private TransportMeters() {
	}

	/**
	 * @param <T> what the totals are read from (held strongly by the meters' functions:
	 * Micrometer keeps only a weak reference to a meter's object, which a binder nothing else
	 * references would lose at the next collection)
	 * @param registry where the meters go
	 * @param prefix the meter names' prefix
	 * @param tags tags of every meter
	 * @param source what the totals are read from
	 * @param totals reads the totals, never going backwards
	 */
	static <T> void bind(MeterRegistry registry, String prefix, Tags tags, T source, Function<T, TransportStats> totals) {
		String bytes = prefix + ".bytes";
		counter(registry, bytes, tags.and("operation", "send"), source, totals, TransportStats::bytesSent, BaseUnits.BYTES,
				"Bytes posted as Sends, transport headers included");
		counter(registry, bytes, tags.and("operation", "rdma-read"), source, totals, TransportStats::bytesRead,
				BaseUnits.BYTES, "Bytes pulled from the peer with RDMA Read (Read chunks, RFC 8166 §3.4.5)");
		counter(registry, bytes, tags.and("operation", "rdma-write"), source, totals, TransportStats::bytesWritten,
				BaseUnits.BYTES, "Bytes pushed into the peer's Write and Reply chunks with RDMA Write (RFC 8166 §3.4.6)");
		String messages = prefix + ".messages";
		counter(registry, messages, tags.and("type", "inline"), source, totals, TransportStats::inlineMessages, null,
				"RDMA_MSG sent with the whole RPC message inline");
		counter(registry, messages, tags.and("type", "done-sent"), source, totals, TransportStats::doneSent, null,
				"RDMA_DONE messages sent (RFC 5666 §3.5)");
		counter(registry, messages, tags.and("type", "done-received"), source, totals, TransportStats::doneReceived, null,
				"RDMA_DONE messages received (RFC 5666 §3.5)");
		counter(registry, messages, tags.and("type", "invalidated-by-peer"), source, totals,
				TransportStats::invalidatedByPeer, null,
				"Messages that arrived as Send With Invalidate (RFC 8797 §4.1)");
		String chunks = prefix + ".chunks";
		counter(registry, chunks, tags.and("kind", "read-advertised"), source, totals, TransportStats::readChunksSent,
				null, "Read chunks this side advertised, Position-Zero ones included");
		counter(registry, chunks, tags.and("kind", "position-zero-advertised"), source, totals,
				TransportStats::positionZeroChunksSent, null,
				"Position-Zero Read chunks this side advertised (long calls, RFC 8166 §3.5.3)");
		counter(registry, chunks, tags.and("kind", "read-pulled"), source, totals, TransportStats::readChunksPulled, null,
				"Read chunks this side pulled with RDMA Read");
		counter(registry, chunks, tags.and("kind", "write-filled"), source, totals, TransportStats::writeChunksFilled,
				null, "Write chunks this side filled");
		counter(registry, chunks, tags.and("kind", "reply-filled"), source, totals, TransportStats::replyChunksFilled,
				null, "Reply chunks this side filled (long replies, RFC 8166 §3.5.4)");
		String limits = prefix + ".peer-limits";
		counter(registry, limits, tags.and("limit", "operation-timeout"), source, totals,
				TransportStats::operationTimeouts, null,
				"Connections failed because the peer left this side's RDMA Reads (or other work) unanswered");
		counter(registry, limits, tags.and("limit", "bulk-share-wait"), source, totals, TransportStats::bulkShareWaits,
				null, "Calls whose Read chunks waited because their connection held its share of bulk memory");
		String waits = prefix + ".waits";
		counter(registry, waits, tags.and("for", "ord"), source, totals, TransportStats::readsQueued, null,
				"RDMA Reads that waited because their connection had its ORD of Reads outstanding (RFC 5666 §6.2)");
		counter(registry, waits, tags.and("for", "send-queue"), source, totals, TransportStats::sendQueueWaits, null,
				"Work requests that waited for room on their connection's send queue");
		String errors = prefix + ".rdma-errors";
		errors(registry, errors, tags.and("direction", "sent"), source, totals, TransportStats::rdmaErrorsSentByCode);
		errors(registry, errors, tags.and("direction", "received"), source, totals,
				TransportStats::rdmaErrorsReceivedByCode);
	}

	/** RDMA_ERROR by code (RFC 8166 §4.5; draft-cel-nfsv4-rpcrdma-version-two §4.2). */
	private static <T> void errors(MeterRegistry registry, String name, Tags tags, T source,
			Function<T, TransportStats> totals, Function<TransportStats, RdmaErrorCounts> byCode) {
		String description = "RDMA_ERROR messages by error code";
		counter(registry, name, tags.and("code", "err-vers"), source, totals,
				(stats) -> byCode.apply(stats).errVers(), null, description);
		counter(registry, name, tags.and("code", "err-chunk"), source, totals,
				(stats) -> byCode.apply(stats).errChunk(), null, description);
		counter(registry, name, tags.and("code", "err-bad-header"), source, totals,
				(stats) -> byCode.apply(stats).errBadHeader(), null, description);
		counter(registry, name, tags.and("code", "err-inval-option"), source, totals,
				(stats) -> byCode.apply(stats).errInvalOption(), null, description);
	}

	private static <T> void counter(MeterRegistry registry, String name, Tags tags, T source,
			Function<T, TransportStats> totals, ToLongFunction<TransportStats> value, String unit, String description) {
		FunctionCounter.builder(name, source, (ignored) -> value.applyAsLong(totals.apply(source)))
			.tags(tags)
			.baseUnit(unit)
			.description(description)
			.register(registry);
	}

}
