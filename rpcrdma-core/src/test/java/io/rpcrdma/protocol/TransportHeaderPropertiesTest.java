package io.rpcrdma.protocol;

import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.xdr.Hex;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * Round trips of arbitrary valid Version 1 and Version 2 headers, and robustness of the decoder
 * against arbitrary and corrupted input: it never throws, and whatever it accepts re-encodes to
 * exactly the bytes it read.
 */
class TransportHeaderPropertiesTest {

	/** Default limits except that chunk byte totals are unbounded, so arbitrary lengths pass. */
	private static final TransportHeaderDecoder DECODER = new TransportHeaderDecoder(
			new HeaderLimits(16, 16, Long.MAX_VALUE, 1024), VersionRange.VERSIONS_1_AND_2);

	@Property
	void version1HeadersRoundTrip(@ForAll("version1Headers") TransportHeader header,
			@ForAll @Size(max = 16) byte[] rpcTail, @ForAll boolean optionalPayload) {
		assertRoundTrip(header, rpcTail, optionalPayload);
	}

	@Property
	void version2HeadersRoundTrip(@ForAll("version2Headers") TransportHeader header,
			@ForAll @Size(max = 16) byte[] rpcTail, @ForAll boolean optionalPayload) {
		assertRoundTrip(header, rpcTail, optionalPayload);
	}

	private static void assertRoundTrip(TransportHeader header, byte[] rpcTail, boolean optionalPayload) {
		int headerLength = TransportHeaderEncoder.encodedLength(header);
		boolean withPayload = header.payloadRule() == PayloadRule.REQUIRED
				|| (header.payloadRule() == PayloadRule.OPTIONAL && optionalPayload);
		int payloadLength = withPayload ? 8 + rpcTail.length : 0;
		ByteBuffer buffer = ByteBuffer.allocate(headerLength + payloadLength);
		TransportHeaderEncoder.encode(header, new XdrEncoder(buffer));
		assertThat(buffer.position()).isEqualTo(headerLength);
		if (withPayload) {
			buffer.putInt(header.xid()).putInt(0).put(rpcTail);
		}
		buffer.flip();
		HeaderDecodeResult result = DECODER.decode(buffer);
		assertThat(result).isEqualTo(new HeaderDecodeResult.Valid(header, headerLength, payloadLength));
	}

	@Property(tries = 1000)
	void decoderNeverThrowsAndAcceptsOnlyCanonicalEncodings(@ForAll("wordSoups") byte[] message) {
		HeaderDecodeResult result = assertAcceptedBytesReencode(message);
		String outcome = result.getClass().getSimpleName();
		Statistics.label("outcome").collect(outcome);
		if (result instanceof HeaderDecodeResult.Malformed malformed) {
			Statistics.label("fault").collect(malformed.fault());
		}
		// The soup must reach every outcome often, or the property proves little.
		Statistics.label("outcome").coverage(coverage -> {
			coverage.check("Valid").count(count -> count >= 10);
			coverage.check("Malformed").percentage(percent -> percent >= 20);
			coverage.check("UnsupportedVersion").count(count -> count > 0);
		});
	}

	@Property
	void corruptedHeadersAreRejectedOrReencodeExactly(@ForAll("headers") TransportHeader header,
			@ForAll @IntRange(min = 0, max = 10_000) int where, @ForAll byte value) {
		byte[] message = Arrays.copyOf(Codec.encode(header), TransportHeaderEncoder.encodedLength(header) + 8);
		ByteBuffer.wrap(message).putInt(message.length - 8, header.xid());
		message[where % message.length] = value;
		assertAcceptedBytesReencode(message);
	}

	private static HeaderDecodeResult assertAcceptedBytesReencode(byte[] message) {
		HeaderDecodeResult result = DECODER.decode(new XdrDecoder(ByteBuffer.wrap(message)));
		if (result instanceof HeaderDecodeResult.Valid valid) {
			byte[] reencoded = Codec.encode(valid.header());
			assertThat(valid.payloadOffset()).isEqualTo(reencoded.length);
			byte[] read = Arrays.copyOf(message, valid.payloadOffset());
			if (valid.header() instanceof Rdma2Optional optional) {
				// XDR padding (RFC 4506 §4.10) is sent as zeros, but its content is not checked
				// on receipt, like most XDR implementations; it is the only non-canonical part.
				Arrays.fill(read, 24 + optional.optionInfoLength(), read.length, (byte) 0);
			}
			assertThat(Hex.words(read)).isEqualTo(Hex.words(reencoded));
			assertThat(valid.payloadLength()).isEqualTo(message.length - valid.payloadOffset());
		}
		else if (result instanceof HeaderDecodeResult.Malformed malformed) {
			assertThat(malformed.detail()).isNotBlank();
			assertThat(malformed.version()).isBetween(1, 2);
		}
		return result;
	}

	@Property
	void groupingReadSegmentsKeepsEverySegmentInListOrderPerPosition(@ForAll("readLists") List<ReadSegment> readList) {
		List<ReadChunk> chunks = ReadChunk.group(readList);
		assertThat(ReadChunk.flatten(chunks)).containsExactlyInAnyOrderElementsOf(readList);
		for (int i = 1; i < chunks.size(); i++) {
			assertThat(Integer.compareUnsigned(chunks.get(i - 1).position(), chunks.get(i).position())).isNegative();
		}
		for (ReadChunk chunk : chunks) {
			List<RdmaSegment> inListOrder = new ArrayList<>();
			for (ReadSegment segment : readList) {
				if (segment.position() == chunk.position()) {
					inListOrder.add(segment.target());
				}
			}
			assertThat(chunk.segments()).isEqualTo(inListOrder);
		}
	}

	// --- generators ---

	@Provide
	Arbitrary<TransportHeader> headers() {
		return Arbitraries.oneOf(version1Headers(), version2Headers());
	}

	@Provide
	Arbitrary<TransportHeader> version1Headers() {
		Arbitrary<Integer> ints = Arbitraries.integers();
		return Arbitraries.oneOf(
				Combinators.combine(ints, ints, inlineChunkLists()).as(RdmaMsg::new),
				Combinators.combine(ints, ints, messageChunkLists()).as(RdmaNomsg::new),
				Combinators.combine(ints, ints, ints, ints, inlineChunkLists()).as(RdmaMsgp::new),
				Combinators.combine(ints, ints).as(RdmaDone::new),
				Combinators.combine(ints, ints, versionRanges()).as((xid, credits, range) -> new ErrVers(xid, 1, credits, range)),
				Combinators.combine(ints, ints).as(RdmaErrChunk::new));
	}

	@Provide
	Arbitrary<TransportHeader> version2Headers() {
		Arbitrary<Integer> ints = Arbitraries.integers();
		return Arbitraries.oneOf(
				Combinators.combine(ints, ints, inlineChunkLists()).as(Rdma2Msg::new),
				Combinators.combine(ints, ints, messageChunkLists()).as(Rdma2Nomsg::new),
				Combinators.combine(ints, ints, ints, Arbitraries.bytes().array(byte[].class).ofMaxSize(40))
					.as(Rdma2Optional::new),
				Combinators.combine(ints, ints, versionRanges()).as((xid, credits, range) -> new ErrVers(xid, 2, credits, range)),
				Combinators.combine(ints, ints).as(Rdma2ErrBadHeader::new),
				Combinators.combine(ints, ints).as(Rdma2ErrInvalOption::new));
	}

	private static Arbitrary<VersionRange> versionRanges() {
		return Combinators.combine(Arbitraries.integers(), Arbitraries.integers())
			.as((a, b) -> (Integer.compareUnsigned(a, b) <= 0) ? new VersionRange(a, b) : new VersionRange(b, a));
	}

	private static Arbitrary<RdmaSegment> segments() {
		return Combinators.combine(Arbitraries.integers(), Arbitraries.integers(), Arbitraries.longs())
			.as(RdmaSegment::new)
			.filter(segment -> !segment.wrapsAround());
	}

	@Provide
	Arbitrary<List<ReadSegment>> readLists() {
		// Positions drawn partly from a small set so that segments share chunks; never zero,
		// which is reserved for the RPC message itself.
		Arbitrary<Integer> positions = Arbitraries
			.oneOf(Arbitraries.of(4, 8, 0x80000000, -4), Arbitraries.integers())
			.filter(position -> position != 0);
		return Combinators.combine(positions, segments()).as(ReadSegment::new).list().ofMaxSize(6);
	}

	private static Arbitrary<WriteChunk> writeChunks() {
		return segments().list().ofMaxSize(4).map(WriteChunk::new);
	}

	/** Chunk lists for a message whose RPC message is inline: no Position-Zero Read chunk. */
	private Arbitrary<ChunkLists> inlineChunkLists() {
		return Combinators.combine(readLists(), writeChunks().list().ofMaxSize(4), writeChunks().injectNull(0.5))
			.as(ChunkLists::new);
	}

	/** Chunk lists for RDMA_NOMSG: a Position-Zero Read chunk, a reply chunk, or both. */
	private Arbitrary<ChunkLists> messageChunkLists() {
		return Combinators
			.combine(readLists(), writeChunks().list().ofMaxSize(4), writeChunks().injectNull(0.5), segments(),
					Arbitraries.integers().between(0, 2))
			.as((reads, writes, reply, segment, where) -> {
				List<ReadSegment> readList = new ArrayList<>(reads);
				WriteChunk replyChunk = reply;
				if (where == 0 || (where == 1 && reply == null)) {
					readList.add(0, new ReadSegment(0, segment));
				}
				if (where == 2 && replyChunk == null) {
					replyChunk = WriteChunk.of(segment);
				}
				if (where == 1 && reply == null && replyChunk == null && readList.isEmpty()) {
					replyChunk = WriteChunk.of(segment);
				}
				return new ChunkLists(readList, writes, replyChunk);
			});
	}

	/**
	 * Messages of XDR words that look like headers: a random XID, mostly versions 1 and 2, a
	 * procedure from 0 to 6, then fragments of list structure (read entries, counted write
	 * chunks, terminators) mixed with stray words, sometimes closed by three zero words and
	 * followed by an RPC message start carrying the same XID, and sometimes cut short.
	 */
	@Provide
	Arbitrary<byte[]> wordSoups() {
		Arbitrary<Integer> smallOrAny = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.integers().between(0, 3)),
				Tuple.of(1, Arbitraries.integers()));
		Arbitrary<Long> offsets = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.longs().between(0, 1L << 48)),
				Tuple.of(1, Arbitraries.longs()));
		Arbitrary<List<Integer>> readEntry = Combinators
			.combine(Arbitraries.of(0, 4, 8, 8, 16, -4), Arbitraries.integers(), smallOrAny, offsets)
			.as((position, handle, length, offset) -> List.of(1, position, handle, length, (int) (offset >>> 32),
					offset.intValue()));
		Arbitrary<List<Integer>> writeChunk = Combinators.combine(smallOrAny, Arbitraries.integers())
			.as((count, word) -> {
				List<Integer> chunk = new ArrayList<>(List.of(1, count));
				for (int i = 0; i < Math.min(count & 0xFF, 3) * 4; i++) {
					chunk.add(word + i);
				}
				return chunk;
			});
		Arbitrary<List<Integer>> stray = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(0, 1)),
				Tuple.of(1, Arbitraries.integers())).map(List::of);
		Arbitrary<List<Integer>> chaotic = Arbitraries
			.frequencyOf(Tuple.of(3, Arbitraries.just(List.of(0))), Tuple.of(2, readEntry), Tuple.of(2, writeChunk),
					Tuple.of(1, stray))
			.list()
			.ofMaxSize(8)
			.map(lists -> lists.stream().flatMap(List::stream).toList());
		Arbitrary<List<Integer>> structured = Combinators
			.combine(readEntry.list().ofMaxSize(3), writeChunk.list().ofMaxSize(2),
					Arbitraries.oneOf(writeChunk, Arbitraries.just(List.of(0))))
			.as((reads, writes, reply) -> {
				List<Integer> lists = new ArrayList<>();
				reads.forEach(lists::addAll);
				lists.add(0);
				writes.forEach(lists::addAll);
				lists.add(0);
				lists.addAll(reply);
				return lists;
			});
		Arbitrary<List<Integer>> fragments = Arbitraries.frequencyOf(Tuple.of(2, structured), Tuple.of(1, chaotic));
		Arbitrary<Integer> versions = Arbitraries.of(1, 1, 1, 1, 1, 2, 2, 2, 2, 3);
		Arbitrary<Integer> procedures = Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.of(0, 1)),
				Tuple.of(1, Arbitraries.integers().between(2, 6)));
		Arbitrary<Integer> extras = Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just(0)),
				Tuple.of(1, Arbitraries.integers().between(1, 3)));
		return Combinators
			.combine(Arbitraries.integers(), versions, procedures, fragments, Arbitraries.integers().between(0, 3),
					extras, Arbitraries.integers().between(0, 8))
			.as((xid, version, procedure, body, ending, extraBytes, cut) -> {
				List<Integer> all = new ArrayList<>(body);
				if ((ending & 1) != 0) {
					all.addAll(List.of(0, 0, 0));
				}
				if ((ending & 2) != 0) {
					all.addAll(List.of(xid, 0));
				}
				ByteBuffer message = ByteBuffer.allocate(16 + 4 * all.size() + extraBytes);
				message.putInt(xid).putInt(version).putInt(body.size()).putInt(procedure);
				for (int word : all) {
					message.putInt(word);
				}
				byte[] bytes = message.array();
				return (cut == 0) ? Arrays.copyOf(bytes, bytes.length / 2) : bytes;
			});
	}

}
