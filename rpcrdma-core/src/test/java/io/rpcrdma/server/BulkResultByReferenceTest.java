package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.service.Bulk;
import io.rpcrdma.service.ProcedureResults;
import io.rpcrdma.service.RpcProcedure;
import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.service.ServiceExporter;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.transport.DdpRange;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * A {@link Bulk} result the requester offered a Write chunk for is not copied into the reply
 * buffer: only its length word is written there, and the transport takes the data from where
 * the method returned it (RFC 8166 §3.4.6). Where that cannot be, it is written whole.
 */
class BulkResultByReferenceTest {

	static final int MAX = 1 << 20;

	@RpcProgram(number = 0x20000910, version = 1)
	interface Source {

		@RpcProcedure(1)
		@Bulk(maxBytes = MAX)
		ByteBuffer get(int length);

	}

	static final class SourceImpl implements Source {

		final ByteBuffer data = ByteBuffer.allocateDirect(MAX + 16);

		SourceImpl() {
			for (int i = 0; i < this.data.capacity(); i++) {
				this.data.put(i, (byte) (i * 13 + 1));
			}
		}

		@Override
		public ByteBuffer get(int length) {
			return this.data.duplicate().limit(length).slice();
		}

	}

	private final SourceImpl source = new SourceImpl();

	private final RegisteredProcedure get;

	BulkResultByReferenceTest() {
		ProgramRegistry registry = new ProgramRegistry();
		new ServiceExporter(new ServiceIntrospector(CodecRegistry.standard()), registry).export(Source.class,
				this.source);
		this.get = (RegisteredProcedure) registry.resolve(0x20000910, 1, 1);
	}

	@Test
	void aBulkResultForAnOfferedWriteChunkLeavesOnlyItsLengthWordInTheReply() throws Exception {
		ServerCall call = call(List.of((long) MAX), true);
		ByteBuffer reply = ByteBuffer.allocate(64);

		handle(call, 300_001, reply);

		assertThat(reply.position()).as("the header, the status and the length word").isEqualTo(8 + 8);
		assertThat(reply.getInt(8)).isEqualTo(ProcedureResults.RESULT);
		assertThat(reply.getInt(12)).isEqualTo(300_001);
		assertThat(call.ddpItems()).hasSize(1);
		DdpRange item = call.ddpItems().get(0);
		assertThat(item.isReduced()).isTrue();
		assertThat(item.offset()).isEqualTo(16);
		assertThat(item.data(reply.flip())).isEqualTo(this.source.get(300_001));
	}

	@Test
	void aBulkResultIsWrittenWholeWhenTheReplyIsProtectedOrCachedOrTheWriteChunkIsTooSmall() throws Exception {
		for (ServerCall call : List.of(call(List.of((long) MAX), false), call(List.of(1000L), true),
				call(List.of(), true))) {
			ByteBuffer reply = ByteBuffer.allocate(4096);

			handle(call, 1001, reply);

			assertThat(reply.position()).as("the data and its padding too").isEqualTo(16 + 1004);
			reply.flip().position(12);
			assertThat(new XdrDecoder(reply).readOpaque(MAX)).isEqualTo(this.source.get(1001));
			assertThat(call.ddpItems()).allSatisfy((item) -> assertThat(item.isReduced()).isFalse());
		}
	}

	@Test
	void aBulkResultOverItsBoundIsStillAFaultWhenAWriteChunkWasOffered() throws Exception {
		ServerCall call = call(List.of((long) MAX + 16), true);
		ByteBuffer reply = ByteBuffer.allocate(4096);

		handle(call, MAX + 1, reply);

		assertThat(reply.getInt(8)).isEqualTo(ProcedureResults.FAULT);
		assertThat(call.ddpItems()).isEmpty();
	}

	private static ServerCall call(List<Long> writeChunks, boolean byReference) {
		ServerCall call = new ServerCall(RpcCall.of(7, 0x20000910, 1, 1), new ChunkOffer(2, writeChunks, 0));
		call.replyStartsAt(0);
		call.allowDdpByReference(byReference);
		return call;
	}

	/** Runs the handler after an 8-byte stand-in for the reply header. */
	private void handle(ServerCall call, int length, ByteBuffer reply) throws Exception {
		reply.position(8);
		ByteBuffer arguments = ByteBuffer.allocate(4).putInt(0, length);
		this.get.handler().handle(call, new XdrDecoder(arguments), new XdrEncoder(reply)).toCompletableFuture().get();
	}

}
