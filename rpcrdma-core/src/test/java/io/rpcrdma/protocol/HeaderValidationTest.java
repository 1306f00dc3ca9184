package io.rpcrdma.protocol;


import static io.rpcrdma.protocol.Codec.assertBytes;
import static io.rpcrdma.protocol.Codec.decode;
import static io.rpcrdma.protocol.Codec.decodeMalformed;
import static io.rpcrdma.protocol.Codec.encode;
import static io.rpcrdma.xdr.Hex.concat;
import static io.rpcrdma.xdr.Hex.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.rpcrdma.oncrpc.VersionRange;
import java.nio.ByteBuffer;
import java.util.List;

import io.rpcrdma.xdr.XdrDecoder;
import org.junit.jupiter.api.Test;

/**
 * The receiver's checks before it trusts a header (RFC 5666 §4.1, §4.2; RFC 8166 §4.5) and
 * the error replies they lead to.
 */
class HeaderValidationTest {

	@Test
	void unknownVersionYieldsUnsupportedVersionWithXidAndVersion() {
		HeaderDecodeResult result = decode(hex("""
				cafef00d // rdma_xid
				00000003 // rdma_vers = 3: not spoken here
				00000020 // rdma_credit
				00000000 // rdma_proc
				00000000 00000000 00000000 cafef00d 00000000
				"""));
		assertThat(result).isEqualTo(new HeaderDecodeResult.UnsupportedVersion(0xcafef00d, 3));
	}

	@Test
	void versionIsCheckedBeforeAnythingElse() {
		// Eight bytes are enough to know the version; the rest of a message of an unknown
		// version is never interpreted, not even its (here absent) procedure.
		assertThat(decode(hex("cafef00d 00000000"))).isEqualTo(new HeaderDecodeResult.UnsupportedVersion(0xcafef00d, 0));
		assertThat(decode(hex("cafef00d ffffffff 00000001 ffffffff")))
			.isEqualTo(new HeaderDecodeResult.UnsupportedVersion(0xcafef00d, -1));
	}

	@Test
	void versionOneOnlyReceiverReportsVersionTwoAsUnsupported() {
		TransportHeaderDecoder v1Only = new TransportHeaderDecoder(HeaderLimits.DEFAULTS, VersionRange.VERSION_1_ONLY);
		byte[] v2 = concat(encode(new Rdma2Msg(7, 1, ChunkLists.EMPTY)), hex("00000007 00000000"));
		assertThat(v1Only.decode(ByteBuffer.wrap(v2))).isEqualTo(new HeaderDecodeResult.UnsupportedVersion(7, 2));
	}

	@Test
	void unsupportedVersionIsAnsweredWithErrVersInALowestSupportedVersionHeader() {
		ErrVers reply = RdmaErrorReplies.forUnsupportedVersion(new HeaderDecodeResult.UnsupportedVersion(0xcafef00d, 3),
				VersionRange.VERSIONS_1_AND_2, 5);
		assertBytes(encode(reply), hex("""
				cafef00d // rdma_xid echoed
				00000001 // rdma_vers = 1, valid at this receiver
				00000005 // rdma_credit
				00000004 // RDMA_ERROR
				00000001 // ERR_VERS
				00000001 // rdma_vers_low
				00000002 // rdma_vers_high
				"""));
	}

	@Test
	void errVersIsReadWhateverVersionItCarries() {
		// RFC 5666 §4.1 fixed offsets: a Version 7 responder's ERR_VERS is still understood.
		HeaderDecodeResult result = decode(hex("""
				cafef00d 00000007 00000001 // rdma_vers = 7
				00000004 00000001 // RDMA_ERROR, ERR_VERS
				00000005 00000007 // it supports 5 to 7
				"""));
		assertThat(result).isEqualTo(new HeaderDecodeResult.Valid(new ErrVers(0xcafef00d, 7, 1, 5, 7), 28, 0));
		// Any other message of that version is not interpreted.
		assertThat(decode(hex("cafef00d 00000007 00000001 00000004 00000002 00000005 00000007")))
			.isInstanceOf(HeaderDecodeResult.UnsupportedVersion.class);
	}

	@Test
	void xidMismatchBetweenTransportHeaderAndRpcMessageIsMalformed() {
		byte[] header = encode(new RdmaMsg(0x11111111, 1, ChunkLists.EMPTY));
		HeaderDecodeResult.Malformed malformed = decodeMalformed(concat(header, hex("""
				22222222 // the RPC message's xid differs
				00000000 // msg_type = CALL
				""")), HeaderFault.XID_MISMATCH);
		assertThat(malformed.detail()).contains("0x11111111").contains("0x22222222");
		assertBytes(encode(RdmaErrorReplies.forMalformed(malformed, 3)), hex("""
				11111111 // rdma_xid of the bad message
				00000001 // Version 1
				00000003 // rdma_credit
				00000004 // RDMA_ERROR
				00000002 // ERR_CHUNK
				"""));
	}

	@Test
	void xidMismatchInVersionTwoMapsToBadHeader() {
		byte[] message = concat(encode(new Rdma2Msg(0x11111111, 1, ChunkLists.EMPTY)), hex("22222222 00000001"));
		HeaderDecodeResult.Malformed malformed = decodeMalformed(message, HeaderFault.XID_MISMATCH);
		assertThat(RdmaErrorReplies.forMalformed(malformed, 3)).isEqualTo(new Rdma2ErrBadHeader(0x11111111, 3));
	}

	@Test
	void xidMismatchAfterRdmaMsgpAndRdmaOptionalIsMalformed() {
		decodeMalformed(concat(encode(new RdmaMsgp(1, 1, 8, 64, ChunkLists.EMPTY)), hex("00000002 00000000")),
				HeaderFault.XID_MISMATCH);
		decodeMalformed(concat(encode(new Rdma2Optional(1, 1, 9, new byte[2])), hex("00000002 00000000")),
				HeaderFault.XID_MISMATCH);
	}

	@Test
	void malformedMapsToErrChunkInVersionOneAndBadHeaderInVersionTwo() {
		assertThat(RdmaErrorReplies.forMalformed(1, 42, 8)).isEqualTo(new RdmaErrChunk(42, 8));
		assertThat(RdmaErrorReplies.forMalformed(2, 42, 8)).isEqualTo(new Rdma2ErrBadHeader(42, 8));
		assertThatIllegalArgumentException().isThrownBy(() -> RdmaErrorReplies.forMalformed(3, 42, 8));
	}

	@Test
	void unrecognizedOptionIsAnsweredWithInvalOption() {
		Rdma2Optional optional = new Rdma2Optional(0x5555, 2, 0x1234, new byte[] { 1 });
		assertBytes(encode(RdmaErrorReplies.forInvalidOption(optional, 4)), hex("""
				00005555 // rdma_xid of the RDMA_OPTIONAL
				00000002 // Version 2
				00000004 // rdma_credit
				00000004 // RDMA_ERROR
				00000003 // RDMA_ERR_INVAL_OPTION
				"""));
	}

	@Test
	void fewerThanEightBytesCannotBeIdentified() {
		assertThat(decode(new byte[0])).isEqualTo(new HeaderDecodeResult.Unidentified(0));
		assertThat(decode(hex("01020304 000000"))).isEqualTo(new HeaderDecodeResult.Unidentified(7));
	}

	@Test
	void validHeaderLeavesTheDecoderAtTheRpcMessage() {
		RdmaMsg header = new RdmaMsg(0x0a0b0c0d, 4,
				new ChunkLists(List.of(), List.of(WriteChunk.of(new RdmaSegment(1, 4096, 0))), null));
		byte[] rpc = hex("0a0b0c0d 00000001 00000000");
		ByteBuffer buffer = ByteBuffer.allocate(100);
		buffer.position(10);
		buffer.put(encode(header)).put(rpc).flip().position(10);
		XdrDecoder in = new XdrDecoder(buffer);
		HeaderDecodeResult result = Codec.DECODER.decode(in);
		int payloadStart = 10 + TransportHeaderEncoder.encodedLength(header);
		assertThat(result).isEqualTo(new HeaderDecodeResult.Valid(header, payloadStart, rpc.length));
		assertThat(in.position()).isEqualTo(payloadStart);
		assertThat(in.readInt()).isEqualTo(0x0a0b0c0d);
	}

	@Test
	void decoderIsReusableAcrossMessages() {
		XdrDecoder in = new XdrDecoder(ByteBuffer.allocate(0));
		byte[] done = encode(new RdmaDone(1, 1));
		byte[] error = encode(new RdmaErrChunk(2, 1));
		assertThat(Codec.DECODER.decode(in.reset(ByteBuffer.wrap(done))))
			.isEqualTo(new HeaderDecodeResult.Valid(new RdmaDone(1, 1), 16, 0));
		assertThat(Codec.DECODER.decode(in.reset(ByteBuffer.wrap(error))))
			.isEqualTo(new HeaderDecodeResult.Valid(new RdmaErrChunk(2, 1), 20, 0));
	}

	@Test
	void decoderAcceptsOnlyVersionsItCanDecode() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new TransportHeaderDecoder(HeaderLimits.DEFAULTS, new VersionRange(1, 3)));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new TransportHeaderDecoder(HeaderLimits.DEFAULTS, new VersionRange(0, 1)));
	}

	@Test
	void headerLimitsRejectNonsense() {
		assertThatIllegalArgumentException().isThrownBy(() -> new HeaderLimits(0, 1, 1, 1));
		assertThatIllegalArgumentException().isThrownBy(() -> new HeaderLimits(1, 0, 1, 1));
		assertThatIllegalArgumentException().isThrownBy(() -> new HeaderLimits(1, 1, -1, 1));
		assertThatIllegalArgumentException().isThrownBy(() -> new HeaderLimits(1, 1, 1, -1));
		assertThat(HeaderLimits.DEFAULTS).isEqualTo(new HeaderLimits(16, 16, 16L << 20, 1024));
	}

	@Test
	void limitsAreApplicableExactlyAtTheBoundary() {
		// Exactly maxSegmentsPerChunk segments and maxTotalChunkBytes bytes pass.
		TransportHeaderDecoder decoder = new TransportHeaderDecoder(new HeaderLimits(2, 2, 300, 0),
				VersionRange.VERSIONS_1_AND_2);
		RdmaMsg header = new RdmaMsg(9, 1, new ChunkLists(List.of(new ReadSegment(8, 1, 100, 0)),
				List.of(WriteChunk.of(new RdmaSegment(2, 100, 0), new RdmaSegment(3, 100, 0))), null));
		byte[] message = concat(encode(header), hex("00000009 00000000"));
		assertThat(decoder.decode(ByteBuffer.wrap(message))).isInstanceOf(HeaderDecodeResult.Valid.class);
		TransportHeaderDecoder tighter = new TransportHeaderDecoder(new HeaderLimits(2, 2, 299, 0),
				VersionRange.VERSIONS_1_AND_2);
		decodeMalformed(tighter, message, HeaderFault.CHUNK_BYTES_LIMIT);
	}

}
