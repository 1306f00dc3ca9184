package io.rpcrdma.protocol;


import static io.rpcrdma.protocol.Codec.assertBytes;
import static io.rpcrdma.protocol.Codec.decodeValid;
import static io.rpcrdma.protocol.Codec.encode;
import static io.rpcrdma.xdr.Hex.concat;
import static io.rpcrdma.xdr.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Byte-exact Version 2 transport headers, written field by field from the XDR of
 * draft-cel-nfsv4-rpcrdma-version-two-00 §4.2 ({@code rpcrdma2_xprt_hdr}: rdma_xid, rdma_vers,
 * rdma_credit, then the {@code rpcrdma2_body} union), in both directions.
 */
class Version2VectorsTest {

	private static final int XID = 0x0badcafe;

	private static final byte[] RPC_REPLY = hex("""
			0badcafe // xid
			00000001 // msg_type = REPLY
			00000000 // reply_stat = MSG_ACCEPTED
			""");

	@Test
	void rdma2MsgWithEmptyChunkListsRoundTrip() {
		Rdma2Msg header = new Rdma2Msg(XID, 16, ChunkLists.EMPTY);
		byte[] wire = hex("""
				0badcafe // rdma_xid
				00000002 // rdma_vers = 2
				00000010 // rdma_credit = 16
				00000000 // rdma_proc = RDMA_MSG
				00000000 // rdma_chunks.rdma_reads: none
				00000000 // rdma_chunks.rdma_writes: none
				00000000 // rdma_chunks.rdma_reply: none
				""");
		assertBytes(encode(header), wire);
		Rdma2Msg decoded = (Rdma2Msg) decodeValid(concat(wire, RPC_REPLY), RPC_REPLY.length);
		assertThat(decoded).isEqualTo(header);
		assertThat(decoded.version()).isEqualTo(2);
		assertThat(decoded.payloadRule()).isEqualTo(PayloadRule.REQUIRED);
	}

	@Test
	void rdma2MsgWithAllChunkListsRoundTrip() {
		Rdma2Msg header = new Rdma2Msg(XID, 16, new ChunkLists(List.of(new ReadSegment(8, 0x01020304, 4000, 0x40L)),
				List.of(WriteChunk.of(new RdmaSegment(0x05060708, 1 << 20, 0x1000L))),
				WriteChunk.of(new RdmaSegment(0x090a0b0c, 4096, 0x2000L))));
		byte[] wire = hex("""
				0badcafe // rdma_xid
				00000002 // rdma_vers = 2
				00000010 // rdma_credit = 16
				00000000 // rdma_proc = RDMA_MSG
				00000001 // rdma_reads: entry follows
				00000008 //   rdma_position = 8
				01020304 //   rdma_target.rdma_handle
				00000fa0 //   rdma_target.rdma_length = 4000
				00000000 00000040 // rdma_target.rdma_offset
				00000000 // rdma_reads ends
				00000001 // rdma_writes: chunk follows
				00000001 //   rdma_target<> count = 1
				05060708 //   rdma_handle
				00100000 //   rdma_length = 1 MiB
				00000000 00001000 // rdma_offset
				00000000 // rdma_writes ends
				00000001 // rdma_reply follows
				00000001 //   rdma_target<> count = 1
				090a0b0c //   rdma_handle
				00001000 //   rdma_length = 4096
				00000000 00002000 // rdma_offset
				""");
		assertBytes(encode(header), wire);
		assertThat(decodeValid(concat(wire, RPC_REPLY), RPC_REPLY.length)).isEqualTo(header);
	}

	@Test
	void rdma2NomsgWithReplyChunkRoundTrip() {
		// A Long Reply: the responder wrote the reply into the reply chunk and returns it
		// with the length it used.
		Rdma2Nomsg header = new Rdma2Nomsg(XID, 16,
				new ChunkLists(List.of(), List.of(), WriteChunk.of(new RdmaSegment(0x77777777, 6000, 0x3000L))));
		byte[] wire = hex("""
				0badcafe // rdma_xid
				00000002 // rdma_vers = 2
				00000010 // rdma_credit = 16
				00000001 // rdma_proc = RDMA_NOMSG
				00000000 // no rdma_reads
				00000000 // no rdma_writes
				00000001 // rdma_reply follows
				00000001 //   rdma_target<> count = 1
				77777777 //   rdma_handle
				00001770 //   rdma_length = 6000
				00000000 00003000 // rdma_offset
				""");
		assertBytes(encode(header), wire);
		Rdma2Nomsg decoded = (Rdma2Nomsg) decodeValid(wire, 0);
		assertThat(decoded).isEqualTo(header);
		assertThat(decoded.payloadRule()).isEqualTo(PayloadRule.FORBIDDEN);
	}

	@Test
	void rdma2OptionalWithoutPayloadRoundTrip() {
		Rdma2Optional header = new Rdma2Optional(XID, 16, 7, new byte[] { 1, 2, 3, 4, 5 });
		byte[] wire = hex("""
				0badcafe // rdma_xid
				00000002 // rdma_vers = 2
				00000010 // rdma_credit = 16
				00000005 // rdma_proc = RDMA_OPTIONAL
				00000007 // rdma_opttype = 7
				00000005 // rdma_optinfo length = 5
				01020304 // rdma_optinfo bytes 0-3
				05000000 // rdma_optinfo byte 4, then 3 bytes of XDR padding
				""");
		assertBytes(encode(header), wire);
		Rdma2Optional decoded = (Rdma2Optional) decodeValid(wire, 0);
		assertThat(decoded).isEqualTo(header);
		assertThat(decoded.optionInfoBytes()).containsExactly(1, 2, 3, 4, 5);
		assertThat(decoded.payloadRule()).isEqualTo(PayloadRule.OPTIONAL);
	}

	@Test
	void rdma2OptionalWithPayloadRoundTrip() {
		// draft §4.2: an RPC Payload Stream MAY follow RDMA_OPTIONAL.
		Rdma2Optional header = new Rdma2Optional(XID, 16, 0xfffffff0, new byte[0]);
		byte[] wire = hex("""
				0badcafe // rdma_xid
				00000002 // rdma_vers = 2
				00000010 // rdma_credit = 16
				00000005 // rdma_proc = RDMA_OPTIONAL
				fffffff0 // rdma_opttype (unsigned)
				00000000 // rdma_optinfo length = 0
				""");
		assertBytes(encode(header), wire);
		assertThat(decodeValid(concat(wire, RPC_REPLY), RPC_REPLY.length)).isEqualTo(header);
	}

	@Test
	void rdma2ErrorErrVersRoundTrip() {
		ErrVers header = new ErrVers(XID, 2, 1, 2, 2);
		byte[] wire = hex("""
				0badcafe // rdma_xid
				00000002 // rdma_vers = 2
				00000001 // rdma_credit = 1
				00000004 // rdma_proc = RDMA_ERROR
				00000001 // rdma_err = RDMA_ERR_VERS
				00000002 // rdma_vrange.rdma_vers_low = 2
				00000002 // rdma_vrange.rdma_vers_high = 2
				""");
		assertBytes(encode(header), wire);
		assertThat(decodeValid(wire, 0)).isEqualTo(header);
	}

	@Test
	void rdma2ErrorBadHeaderRoundTrip() {
		Rdma2ErrBadHeader header = new Rdma2ErrBadHeader(XID, 1);
		byte[] wire = hex("""
				0badcafe // rdma_xid
				00000002 // rdma_vers = 2
				00000001 // rdma_credit = 1
				00000004 // rdma_proc = RDMA_ERROR
				00000002 // rdma_err = RDMA_ERR_BAD_HEADER, void arm
				""");
		assertBytes(encode(header), wire);
		assertThat(decodeValid(wire, 0)).isEqualTo(header);
	}

	@Test
	void rdma2ErrorInvalOptionRoundTrip() {
		Rdma2ErrInvalOption header = new Rdma2ErrInvalOption(XID, 1);
		byte[] wire = hex("""
				0badcafe // rdma_xid
				00000002 // rdma_vers = 2
				00000001 // rdma_credit = 1
				00000004 // rdma_proc = RDMA_ERROR
				00000003 // rdma_err = RDMA_ERR_INVAL_OPTION, void arm
				""");
		assertBytes(encode(header), wire);
		assertThat(decodeValid(wire, 0)).isEqualTo(header);
	}

	@Test
	void rdma2OptionalKeepsItsBytesWhenTheCallerReusesTheSourceBuffer() {
		byte[] info = { 9, 8, 7 };
		Rdma2Optional header = new Rdma2Optional(XID, 1, 3, info);
		info[0] = 0;
		header.optionInfo().position(3);
		assertThat(header.optionInfoBytes()).containsExactly(9, 8, 7);
		assertThat(header.optionInfoLength()).isEqualTo(3);
	}

}
