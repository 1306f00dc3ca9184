package io.rpcrdma.protocol;


import static io.rpcrdma.protocol.Codec.decodeMalformed;
import static io.rpcrdma.xdr.Hex.concat;
import static io.rpcrdma.xdr.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.rpcrdma.oncrpc.VersionRange;
import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

/**
 * One test per class of malformed input (RFC 5666 §4.2, RFC 8166 §4.5.2): each must be reported
 * as {@link HeaderDecodeResult.Malformed} with the exact {@link HeaderFault}, and hostile counts
 * must be refused before anything is allocated from them.
 */
class MalformedHeaderTest {

	private static final String V1_MSG = """
			01020304 // rdma_xid
			00000001 // rdma_vers = 1
			00000020 // rdma_credit
			00000000 // rdma_proc = RDMA_MSG
			""";

	private static final String V2_PREFIX = """
			01020304 // rdma_xid
			00000002 // rdma_vers = 2
			00000020 // rdma_credit
			""";

	private static final byte[] RPC = hex("01020304 00000000");

	@Test
	void unknownVersion1ProcedureIsMalformed() {
		HeaderDecodeResult.Malformed malformed = decodeMalformed(hex("""
				01020304 00000001 00000020
				00000005 // rdma_proc = 5: not a Version 1 procedure
				"""), HeaderFault.UNKNOWN_PROCEDURE);
		assertThat(malformed.xid()).isEqualTo(0x01020304);
		assertThat(malformed.version()).isEqualTo(1);
		assertThat(malformed.detail()).contains("rdma_proc 5");
	}

	@Test
	void unknownVersion2ProcedureIsMalformed() {
		decodeMalformed(hex(V2_PREFIX + "00000006 // rdma_proc = 6"), HeaderFault.UNKNOWN_PROCEDURE);
		decodeMalformed(hex(V2_PREFIX + "ffffffff // rdma_proc = 2^32 - 1"), HeaderFault.UNKNOWN_PROCEDURE);
	}

	@Test
	void reservedVersion2ProceduresAreMalformed() {
		assertThat(decodeMalformed(hex(V2_PREFIX + "00000002 // RDMA_MSGP, reserved"), HeaderFault.RESERVED_PROCEDURE)
			.detail()).contains("RDMA_MSGP");
		assertThat(decodeMalformed(hex(V2_PREFIX + "00000003 // RDMA_DONE, reserved"), HeaderFault.RESERVED_PROCEDURE)
			.detail()).contains("RDMA_DONE");
	}

	@Test
	void listDiscriminatorOtherThanZeroOrOneIsMalformed() {
		assertThat(decodeMalformed(hex(V1_MSG + "00000002 // read list discriminator = 2"),
				HeaderFault.INVALID_DISCRIMINATOR).detail()).contains("read list");
		assertThat(decodeMalformed(hex(V1_MSG + "00000000 ffffffff // write list discriminator = -1"),
				HeaderFault.INVALID_DISCRIMINATOR).detail()).contains("write list");
		assertThat(decodeMalformed(hex(V1_MSG + "00000000 00000000 00000100 // reply chunk discriminator = 256"),
				HeaderFault.INVALID_DISCRIMINATOR).detail()).contains("reply chunk");
	}

	@Test
	void truncatedFixedFieldsAreMalformedButKeepTheXid() {
		HeaderDecodeResult.Malformed malformed = decodeMalformed(hex("""
				01020304 // rdma_xid
				00000001 // rdma_vers = 1
				00000020 // rdma_credit, then nothing
				"""), HeaderFault.TRUNCATED);
		assertThat(malformed.xid()).isEqualTo(0x01020304);
		assertThat(malformed.detail()).contains("rdma_proc");
	}

	@Test
	void truncatedReadListIsMalformed() {
		assertThat(decodeMalformed(hex(V1_MSG + """
				00000001 // read entry follows
				00000010 // position
				aaaaaaaa // handle, then the segment stops
				"""), HeaderFault.TRUNCATED).detail()).contains("read list entry");
		// A list without its terminating zero.
		decodeMalformed(hex(V1_MSG + "00000001 00000010 aaaaaaaa 00000010 00000000 00000000"), HeaderFault.TRUNCATED);
	}

	@Test
	void truncatedWriteChunkIsMalformed() {
		assertThat(decodeMalformed(hex(V1_MSG + """
				00000000 // no read list
				00000001 // write chunk follows
				00000002 // 2 segments, but only one is present
				bbbbbbbb 00001000 00000000 00000000
				00000000 00000000
				"""), HeaderFault.TRUNCATED).detail()).contains("write chunk");
	}

	@Test
	void missingReplyChunkDiscriminatorIsMalformed() {
		decodeMalformed(hex(V1_MSG + "00000000 00000000 // the reply chunk word is missing"), HeaderFault.TRUNCATED);
	}

	@Test
	void writeChunkClaimingTwoToTheThirtyOneSegmentsIsRejectedBeforeAllocation() {
		byte[] hostile = hex(V1_MSG + """
				00000000 // no read list
				00000001 // write chunk follows
				7fffffff // 2^31 - 1 segments
				cccccccc 00001000 00000000 00000000
				""");
		assertThat(decodeMalformed(hostile, HeaderFault.SEGMENT_LIMIT).detail()).contains("write chunk")
			.contains("2147483647");
		// Even a receiver whose segment limit is unbounded refuses the count against the
		// bytes actually present, before allocating a 2^31-element array.
		TransportHeaderDecoder unbounded = new TransportHeaderDecoder(
				new HeaderLimits(Integer.MAX_VALUE, 16, Long.MAX_VALUE, 1024), VersionRange.VERSIONS_1_AND_2);
		decodeMalformed(unbounded, hostile, HeaderFault.TRUNCATED);
		assertThat(Allocations.allocatedBy(() -> unbounded.decode(ByteBuffer.wrap(hostile)))).isLessThan(16 * 1024);
	}

	@Test
	void replyChunkOverTheSegmentLimitIsMalformed() {
		ByteBuffer message = ByteBuffer.allocate(16 + 16 + 17 * 16);
		message.put(hex(V1_MSG)).putInt(0).putInt(0).putInt(1).putInt(17);
		for (int i = 0; i < 17; i++) {
			message.putInt(i).putInt(64).putLong(i * 64L);
		}
		assertThat(decodeMalformed(message.array(), HeaderFault.SEGMENT_LIMIT).detail()).contains("reply chunk");
	}

	@Test
	void readListWithoutEndIsCutOffAtMaxChunks() {
		// A read list that claims to go on forever (here 100 000 entries and no terminator,
		// each at a new position) stops being read at the seventeenth chunk, long before the
		// buffer runs out; what was decoded so far is bounded by the limits.
		int entries = 100_000;
		ByteBuffer message = ByteBuffer.allocate(16 + entries * 28);
		message.put(hex(V1_MSG));
		for (int i = 0; i < entries; i++) {
			message.putInt(1).putInt(4 * (i + 1)).putInt(i).putInt(8).putLong(0);
		}
		HeaderDecodeResult.Malformed malformed = decodeMalformed(message.array(), HeaderFault.CHUNK_LIMIT);
		assertThat(malformed.detail()).contains("read chunk 17");
		assertThat(Allocations.allocatedBy(() -> Codec.DECODER.decode(ByteBuffer.wrap(message.array()))))
			.isLessThan(16 * 1024);
	}

	@Test
	void readListWithTooManySegmentsAtOnePositionIsCutOffAtMaxSegmentsPerChunk() {
		int entries = 100_000;
		ByteBuffer message = ByteBuffer.allocate(16 + entries * 28);
		message.put(hex(V1_MSG));
		for (int i = 0; i < entries; i++) {
			message.putInt(1).putInt(64).putInt(i).putInt(8).putLong(0);
		}
		assertThat(decodeMalformed(message.array(), HeaderFault.SEGMENT_LIMIT).detail())
			.contains("read chunk at position 64");
	}

	@Test
	void readAndWriteChunksTogetherOverMaxChunksAreMalformed() {
		// 10 read chunks and 7 write chunks: 17 > 16.
		ByteBuffer message = ByteBuffer.allocate(1024);
		message.put(hex(V1_MSG));
		for (int i = 0; i < 10; i++) {
			message.putInt(1).putInt(8 * (i + 1)).putInt(i).putInt(8).putLong(0);
		}
		message.putInt(0);
		for (int i = 0; i < 7; i++) {
			message.putInt(1).putInt(1).putInt(i).putInt(8).putLong(0);
		}
		message.putInt(0).putInt(0).put(RPC);
		assertThat(decodeMalformed(message.array(), HeaderFault.CHUNK_LIMIT).detail()).contains("write list adds chunk 17");
	}

	@Test
	void chunkBytesOverTheLimitAreMalformed() {
		// Two write chunks of 8 MiB + 1 byte each: over the default 16 MiB.
		byte[] message = concat(hex(V1_MSG + """
				00000000 // no read list
				00000001 00000001 dddddddd 00800001 00000000 00000000 // 8 MiB + 1
				00000001 00000001 eeeeeeee 00800000 00000000 00000000 // 8 MiB
				00000000 // write list ends
				00000000 // no reply chunk
				"""), RPC);
		assertThat(decodeMalformed(message, HeaderFault.CHUNK_BYTES_LIMIT).detail()).contains("16777217");
	}

	@Test
	void chunkLengthSumsDoNotOverflow() {
		// 0xffffffff + 0x00000002 wraps to 1 in 32-bit arithmetic; summed as unsigned 64-bit
		// it is 2^32 + 1, which is over a 4 GiB limit.
		TransportHeaderDecoder decoder = new TransportHeaderDecoder(new HeaderLimits(16, 16, 1L << 32, 1024),
				VersionRange.VERSIONS_1_AND_2);
		byte[] message = concat(hex(V1_MSG + """
				00000000 // no read list
				00000001 00000002 // one write chunk of two segments
				dddddddd ffffffff 00000000 00000000 // 2^32 - 1 bytes
				eeeeeeee 00000002 00000001 00000000 // 2 bytes
				00000000 00000000
				"""), RPC);
		assertThat(decodeMalformed(decoder, message, HeaderFault.CHUNK_BYTES_LIMIT).detail()).contains("4294967297");
		// Lengths of 2^31 and more, negative as Java ints, still count as large.
		byte[] negative = concat(hex(V1_MSG + """
				00000001 00000004 aaaaaaaa 80000000 00000000 00000000 // 2^31 bytes
				00000000 00000000 00000000
				"""), RPC);
		decodeMalformed(negative, HeaderFault.CHUNK_BYTES_LIMIT);
	}

	@Test
	void segmentWrappingAroundTheAddressSpaceIsMalformed() {
		decodeMalformed(concat(hex(V1_MSG + """
				00000000 // no read list
				00000001 00000001 dddddddd 00000200 ffffffff ffffff00 // ends past 2^64
				00000000 00000000
				"""), RPC), HeaderFault.SEGMENT_WRAPS);
	}

	@Test
	void optionalInfoOverTheLimitIsMalformed() {
		ByteBuffer message = ByteBuffer.allocate(16 + 8 + 1028);
		message.put(hex(V2_PREFIX + "00000005")).putInt(1).putInt(1025);
		assertThat(decodeMalformed(message.array(), HeaderFault.OPTIONAL_INFO_LIMIT).detail()).contains("rdma_optinfo");
		decodeMalformed(hex(V2_PREFIX + "00000005 00000001 ffffffff"), HeaderFault.OPTIONAL_INFO_LIMIT);
		decodeMalformed(hex(V2_PREFIX + "00000005 00000001 00000010 01020304"), HeaderFault.TRUNCATED);
	}

	@Test
	void unknownErrorCodesAreMalformed() {
		decodeMalformed(hex("01020304 00000001 00000001 00000004 00000003 // ERR 3 in Version 1"),
				HeaderFault.UNKNOWN_ERROR_CODE);
		decodeMalformed(hex(V2_PREFIX + "00000004 00000004 // RDMA_ERR 4 in Version 2"), HeaderFault.UNKNOWN_ERROR_CODE);
	}

	@Test
	void errVersWithLowAboveHighIsMalformed() {
		decodeMalformed(hex("01020304 00000001 00000001 00000004 00000001 00000002 00000001"),
				HeaderFault.INVALID_VERSION_RANGE);
	}

	@Test
	void rdmaMsgWithoutRpcMessageIsMalformed() {
		byte[] header = hex(V1_MSG + "00000000 00000000 00000000");
		assertThat(decodeMalformed(header, HeaderFault.MISSING_RPC_MESSAGE).detail()).contains("0 bytes follow");
		decodeMalformed(concat(header, hex("01020304")), HeaderFault.MISSING_RPC_MESSAGE);
		decodeMalformed(hex("01020304 00000001 00000001 00000002 00001000 00000400 00000000 00000000 00000000"),
				HeaderFault.MISSING_RPC_MESSAGE);
		decodeMalformed(hex(V2_PREFIX + "00000000 00000000 00000000 00000000 01020304 000000"),
				HeaderFault.MISSING_RPC_MESSAGE);
	}

	@Test
	void bytesAfterHeadersThatForbidAnRpcMessageAreMalformed() {
		byte[] trailing = hex("00000000");
		decodeMalformed(concat(hex("01020304 00000001 00000001 00000003"), trailing), HeaderFault.UNEXPECTED_RPC_MESSAGE);
		decodeMalformed(concat(hex("01020304 00000001 00000001 00000004 00000002"), trailing),
				HeaderFault.UNEXPECTED_RPC_MESSAGE);
		decodeMalformed(concat(hex("""
				01020304 00000001 00000001 00000001 // RDMA_NOMSG
				00000001 00000000 aaaaaaaa 00001000 00000000 00000000 00000000 // position-zero read chunk
				00000000 00000000
				"""), RPC), HeaderFault.UNEXPECTED_RPC_MESSAGE);
		decodeMalformed(concat(hex(V2_PREFIX + "00000004 00000003"), trailing), HeaderFault.UNEXPECTED_RPC_MESSAGE);
		decodeMalformed(concat(hex(V2_PREFIX + """
				00000001 // RDMA_NOMSG
				00000000 00000000 00000001 00000001 aaaaaaaa 00001000 00000000 00000000 // reply chunk
				"""), RPC), HeaderFault.UNEXPECTED_RPC_MESSAGE);
	}

	@Test
	void rdmaNomsgWithoutAChunkForItsMessageIsMalformed() {
		decodeMalformed(hex("01020304 00000001 00000001 00000001 00000000 00000000 00000000"),
				HeaderFault.NOMSG_WITHOUT_MESSAGE_CHUNK);
		// A read chunk at a non-zero position and a write chunk do not hold the RPC message.
		decodeMalformed(hex("""
				01020304 00000002 00000001 00000001 // Version 2 RDMA_NOMSG
				00000001 00000008 aaaaaaaa 00001000 00000000 00000000 00000000
				00000001 00000001 bbbbbbbb 00001000 00000000 00000000 00000000
				00000000
				"""), HeaderFault.NOMSG_WITHOUT_MESSAGE_CHUNK);
	}

	@Test
	void rdmaMsgWithPositionZeroReadChunkIsMalformed() {
		decodeMalformed(concat(hex(V1_MSG + """
				00000001 00000000 aaaaaaaa 00001000 00000000 00000000 // position zero
				00000000 00000000 00000000
				"""), RPC), HeaderFault.POSITION_ZERO_WITH_INLINE_MESSAGE);
	}

	@Test
	void malformedDetailNamesTheRuleBroken() {
		HeaderDecodeResult.Malformed malformed = decodeMalformed(hex(V1_MSG + "00000007"),
				HeaderFault.INVALID_DISCRIMINATOR);
		assertThat(malformed.detail()).contains("must be 0 or 1 but was 7").contains("RFC 4506 §4.19");
	}

}
