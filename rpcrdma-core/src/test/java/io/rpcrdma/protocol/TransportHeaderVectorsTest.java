package io.rpcrdma.protocol;


import static io.rpcrdma.protocol.Codec.assertBytes;
import static io.rpcrdma.protocol.Codec.decodeValid;
import static io.rpcrdma.protocol.Codec.encode;
import static io.rpcrdma.xdr.Hex.concat;
import static io.rpcrdma.xdr.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.rpcrdma.oncrpc.VersionRange;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Byte-exact Version 1 transport headers, written field by field from the XDR of RFC 5666 §4.3,
 * checked in both directions: the encoder must produce exactly these bytes, and the decoder
 * must turn exactly these bytes into the same record.
 */
class TransportHeaderVectorsTest {

	private static final int XID = 0x1a2b3c4d;

	/** The start of an RPC call (RFC 5531 §9) with the same XID: xid, msg_type CALL, rpcvers 2. */
	private static final byte[] RPC_CALL = hex("""
			1a2b3c4d // xid
			00000000 // msg_type = CALL
			00000002 // rpcvers = 2
			""");

	@Test
	void rdmaMsgWithEmptyChunkListsRoundTrip() {
		RdmaMsg header = new RdmaMsg(XID, 32, ChunkLists.EMPTY);
		byte[] wire = hex("""
				1a2b3c4d // rdma_xid
				00000001 // rdma_vers = 1
				00000020 // rdma_credit = 32
				00000000 // rdma_proc = RDMA_MSG
				00000000 // rdma_reads: no read list
				00000000 // rdma_writes: no write list
				00000000 // rdma_reply: no reply chunk
				""");
		assertBytes(encode(header), wire);
		assertThat(decodeValid(concat(wire, RPC_CALL), RPC_CALL.length)).isEqualTo(header);
	}

	@Test
	void rdmaMsgWithReadListOfTwoSegmentsAtTwoPositionsRoundTrip() {
		RdmaMsg header = new RdmaMsg(XID, 32, new ChunkLists(List.of(
				new ReadSegment(64, 0x11111111, 4096, 0xc0de0000L),
				new ReadSegment(128, 0x22222222, 512, 0xc0de2000L)), List.of(), null));
		byte[] wire = hex("""
				1a2b3c4d // rdma_xid
				00000001 // rdma_vers = 1
				00000020 // rdma_credit = 32
				00000000 // rdma_proc = RDMA_MSG
				00000001 // read list: entry follows
				00000040 //   position = 64
				11111111 //   target.handle
				00001000 //   target.length = 4096
				00000000 c0de0000 // target.offset
				00000001 // read list: entry follows
				00000080 //   position = 128
				22222222 //   target.handle
				00000200 //   target.length = 512
				00000000 c0de2000 // target.offset
				00000000 // read list ends
				00000000 // no write list
				00000000 // no reply chunk
				""");
		assertBytes(encode(header), wire);
		RdmaMsg decoded = (RdmaMsg) decodeValid(concat(wire, RPC_CALL), RPC_CALL.length);
		assertThat(decoded).isEqualTo(header);
		assertThat(decoded.chunkLists().readChunks()).containsExactly(
				new ReadChunk(64, List.of(new RdmaSegment(0x11111111, 4096, 0xc0de0000L))),
				new ReadChunk(128, List.of(new RdmaSegment(0x22222222, 512, 0xc0de2000L))));
	}

	@Test
	void rdmaMsgWithWriteListOfTwoChunksRoundTrip() {
		RdmaMsg header = new RdmaMsg(XID, 32, new ChunkLists(List.of(),
				List.of(WriteChunk.of(new RdmaSegment(0x33333333, 4096, 0x1_0000_0000L),
						new RdmaSegment(0x33333334, 2048, 0x1_0000_1000L)),
						WriteChunk.of(new RdmaSegment(0x44444444, 256, 0xffff_ffff_ffff_f000L))),
				null));
		byte[] wire = hex("""
				1a2b3c4d // rdma_xid
				00000001 // rdma_vers = 1
				00000020 // rdma_credit = 32
				00000000 // rdma_proc = RDMA_MSG
				00000000 // no read list
				00000001 // write list: chunk follows
				00000002 //   target<> count = 2
				33333333 //   [0].handle
				00001000 //   [0].length = 4096
				00000001 00000000 // [0].offset
				33333334 //   [1].handle
				00000800 //   [1].length = 2048
				00000001 00001000 // [1].offset
				00000001 // write list: chunk follows
				00000001 //   target<> count = 1
				44444444 //   [0].handle
				00000100 //   [0].length = 256
				ffffffff fffff000 // [0].offset
				00000000 // write list ends
				00000000 // no reply chunk
				""");
		assertBytes(encode(header), wire);
		assertThat(decodeValid(concat(wire, RPC_CALL), RPC_CALL.length)).isEqualTo(header);
	}

	@Test
	void rdmaMsgWithReplyChunkRoundTrip() {
		RdmaMsg header = new RdmaMsg(XID, 32,
				new ChunkLists(List.of(), List.of(), WriteChunk.of(new RdmaSegment(0x55555555, 65536, 0x10000000L))));
		byte[] wire = hex("""
				1a2b3c4d // rdma_xid
				00000001 // rdma_vers = 1
				00000020 // rdma_credit = 32
				00000000 // rdma_proc = RDMA_MSG
				00000000 // no read list
				00000000 // no write list
				00000001 // reply chunk follows
				00000001 //   target<> count = 1
				55555555 //   [0].handle
				00010000 //   [0].length = 65536
				00000000 10000000 // [0].offset
				""");
		assertBytes(encode(header), wire);
		assertThat(decodeValid(concat(wire, RPC_CALL), RPC_CALL.length)).isEqualTo(header);
	}

	@Test
	void rdmaNomsgWithPositionZeroReadChunkRoundTrip() {
		RdmaNomsg header = new RdmaNomsg(XID, 32,
				new ChunkLists(List.of(new ReadSegment(0, 0x66666666, 8192, 0x20000000L)), List.of(), null));
		byte[] wire = hex("""
				1a2b3c4d // rdma_xid
				00000001 // rdma_vers = 1
				00000020 // rdma_credit = 32
				00000001 // rdma_proc = RDMA_NOMSG
				00000001 // read list: entry follows
				00000000 //   position = 0: the whole RPC call (Long Call)
				66666666 //   target.handle
				00002000 //   target.length = 8192
				00000000 20000000 // target.offset
				00000000 // read list ends
				00000000 // no write list
				00000000 // no reply chunk
				""");
		assertBytes(encode(header), wire);
		RdmaNomsg decoded = (RdmaNomsg) decodeValid(wire, 0);
		assertThat(decoded).isEqualTo(header);
		assertThat(decoded.chunkLists().hasPositionZeroReadChunk()).isTrue();
		assertThat(decoded.payloadRule()).isEqualTo(PayloadRule.FORBIDDEN);
	}

	@Test
	void rdmaMsgpRoundTrip() {
		RdmaMsgp header = new RdmaMsgp(XID, 32, 4096, 1024, ChunkLists.EMPTY);
		byte[] wire = hex("""
				1a2b3c4d // rdma_xid
				00000001 // rdma_vers = 1
				00000020 // rdma_credit = 32
				00000002 // rdma_proc = RDMA_MSGP
				00001000 // rdma_align = 4096
				00000400 // rdma_thresh = 1024
				00000000 // no read list
				00000000 // no write list
				00000000 // no reply chunk
				""");
		assertBytes(encode(header), wire);
		RdmaMsgp decoded = (RdmaMsgp) decodeValid(concat(wire, RPC_CALL), RPC_CALL.length);
		assertThat(decoded).isEqualTo(header);
		assertThat(decoded.align()).isEqualTo(4096);
		assertThat(decoded.threshold()).isEqualTo(1024);
	}

	@Test
	void rdmaDoneRoundTrip() {
		RdmaDone header = new RdmaDone(XID, 1);
		byte[] wire = hex("""
				1a2b3c4d // rdma_xid
				00000001 // rdma_vers = 1
				00000001 // rdma_credit = 1
				00000003 // rdma_proc = RDMA_DONE, void body
				""");
		assertBytes(encode(header), wire);
		assertThat(decodeValid(wire, 0)).isEqualTo(header);
	}

	@Test
	void rdmaErrorErrVersRoundTrip() {
		ErrVers header = new ErrVers(XID, 1, 1, VersionRange.VERSIONS_1_AND_2);
		byte[] wire = hex("""
				1a2b3c4d // rdma_xid
				00000001 // rdma_vers = 1
				00000001 // rdma_credit = 1
				00000004 // rdma_proc = RDMA_ERROR
				00000001 // rdma_err = ERR_VERS
				00000001 // rdma_vers_low = 1
				00000002 // rdma_vers_high = 2
				""");
		assertBytes(encode(header), wire);
		ErrVers decoded = (ErrVers) decodeValid(wire, 0);
		assertThat(decoded).isEqualTo(header);
		assertThat(decoded.supported()).isEqualTo(new VersionRange(1, 2));
	}

	@Test
	void rdmaErrorErrChunkRoundTrip() {
		RdmaErrChunk header = new RdmaErrChunk(XID, 1);
		byte[] wire = hex("""
				1a2b3c4d // rdma_xid
				00000001 // rdma_vers = 1
				00000001 // rdma_credit = 1
				00000004 // rdma_proc = RDMA_ERROR
				00000002 // rdma_err = ERR_CHUNK, void arm
				""");
		assertBytes(encode(header), wire);
		assertThat(decodeValid(wire, 0)).isEqualTo(header);
	}

	@Test
	void rdmaMsgWithAllThreeListsRoundTrip() {
		// A call with a DDP-eligible argument (read chunk of two segments at one position),
		// a write chunk for a result, and a reply chunk: the three lists in RFC 5666 §4.3 order.
		RdmaMsg header = new RdmaMsg(0xdeadbeef, 0x80, new ChunkLists(List.of(
				new ReadSegment(0x84, 0x0a0a0a0a, 4096, 0x7000L),
				new ReadSegment(0x84, 0x0b0b0b0b, 100, 0x9000L)),
				List.of(WriteChunk.of(new RdmaSegment(0x0c0c0c0c, 8192, 0xa000L))),
				WriteChunk.of(new RdmaSegment(0x0d0d0d0d, 2048, 0xe000L))));
		byte[] wire = hex("""
				deadbeef // rdma_xid
				00000001 // rdma_vers = 1
				00000080 // rdma_credit = 128
				00000000 // rdma_proc = RDMA_MSG
				00000001 00000084 0a0a0a0a 00001000 00000000 00007000 // read entry, position 0x84
				00000001 00000084 0b0b0b0b 00000064 00000000 00009000 // read entry, same position
				00000000 // read list ends
				00000001 00000001 0c0c0c0c 00002000 00000000 0000a000 // write chunk of one segment
				00000000 // write list ends
				00000001 00000001 0d0d0d0d 00000800 00000000 0000e000 // reply chunk of one segment
				""");
		byte[] rpc = hex("deadbeef 00000000");
		assertBytes(encode(header), wire);
		RdmaMsg decoded = (RdmaMsg) decodeValid(concat(wire, rpc), rpc.length);
		assertThat(decoded).isEqualTo(header);
		assertThat(decoded.chunkLists().readChunks()).containsExactly(new ReadChunk(0x84,
				List.of(new RdmaSegment(0x0a0a0a0a, 4096, 0x7000L), new RdmaSegment(0x0b0b0b0b, 100, 0x9000L))));
	}

	@Test
	void encodedLengthMatchesTheXdrSizes() {
		// 16 fixed + 3 list words; + 24 per read entry; + 8 + 16n per write chunk; + 4 + 16n reply.
		assertThat(TransportHeaderEncoder.encodedLength(new RdmaMsg(1, 1, ChunkLists.EMPTY))).isEqualTo(28);
		assertThat(TransportHeaderEncoder.encodedLength(new RdmaMsgp(1, 1, 0, 0, ChunkLists.EMPTY))).isEqualTo(36);
		assertThat(TransportHeaderEncoder.encodedLength(new RdmaDone(1, 1))).isEqualTo(16);
		assertThat(TransportHeaderEncoder.encodedLength(new RdmaErrChunk(1, 1))).isEqualTo(20);
		assertThat(TransportHeaderEncoder.encodedLength(new ErrVers(1, 1, 1, 1, 1))).isEqualTo(28);
		assertThat(TransportHeaderEncoder.encodedLength(new ChunkLists(List.of(new ReadSegment(4, 1, 1, 1)),
				List.of(WriteChunk.of(new RdmaSegment(1, 1, 1), new RdmaSegment(1, 1, 1))),
				WriteChunk.of(new RdmaSegment(1, 1, 1))))).isEqualTo(12 + 24 + 8 + 32 + 4 + 16);
	}

}
