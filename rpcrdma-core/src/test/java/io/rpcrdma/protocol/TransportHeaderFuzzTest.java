package io.rpcrdma.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rpcrdma.fuzz.DecodeBudget;
import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * Fuzzes the transport header that opens every RPC-over-RDMA Send, Version 1 (RFC 8166 §4)
 * and Version 2 (draft-cel-nfsv4-rpcrdma-version-two-00 §4), as {@link TransportHeaderDecoder}
 * judges it. Contract: decoding never throws; it yields a {@link HeaderDecodeResult} the
 * receiver can act on, whose error reply encodes; a valid header spans the bytes up to the RPC
 * message and encodes back to bytes that decode to it again.
 * <p>
 * Input: a settings byte (bits 0-1 the versions spoken: 1-2, 1, 2, 1-2; bit 2 tight limits
 * of 2 segments, 3 chunks, 4096 chunk bytes and 16 bytes of rdma_optinfo; bit 3 a direct
 * buffer), then the Send's bytes.
 */
class TransportHeaderFuzzTest {

	private static final HeaderLimits TIGHT = new HeaderLimits(2, 3, 4096, 16);

	private static final VersionRange[] VERSIONS = { VersionRange.VERSIONS_1_AND_2, new VersionRange(1, 1),
			new VersionRange(2, 2), VersionRange.VERSIONS_1_AND_2 };

	@FuzzTest(maxDuration = "30s")
	void decodeTransportHeader(byte[] input) {
		DecodeBudget.check(input.length, () -> decode(input));
	}

	private static void decode(byte[] input) {
		if (input.length == 0) {
			return;
		}
		int settings = input[0];
		TransportHeaderDecoder decoder = new TransportHeaderDecoder((settings & 4) != 0 ? TIGHT : HeaderLimits.DEFAULTS,
				VERSIONS[settings & 3]);
		byte[] send = Arrays.copyOfRange(input, 1, input.length);
		ByteBuffer received = (settings & 8) != 0 ? ByteBuffer.allocateDirect(send.length).put(send).flip()
				: ByteBuffer.wrap(send);
		HeaderDecodeResult result = decoder.decode(received);
		if (result instanceof HeaderDecodeResult.Valid valid) {
			assertThat(valid.payloadOffset() + valid.payloadLength()).isEqualTo(send.length);
			assertThat(received.position()).isEqualTo(valid.payloadOffset());
			// The header encodes to as many bytes as it was read from (they differ at most in
			// the XDR padding of rdma_optinfo, which a receiver ignores, RFC 4506 §4.9), and
			// those bytes, followed by the same RPC message, decode to the same header.
			byte[] encoded = encode(valid.header());
			assertThat(encoded.length).isEqualTo(valid.payloadOffset());
			byte[] resent = send.clone();
			System.arraycopy(encoded, 0, resent, 0, encoded.length);
			assertThat(decoder.decode(ByteBuffer.wrap(resent))).isEqualTo(result);
		}
		else if (result instanceof HeaderDecodeResult.Malformed malformed) {
			assertThat(decoder.supportedVersions().contains(malformed.version())).isTrue();
			assertThat(malformed.detail()).isNotBlank();
			encode(RdmaErrorReplies.forMalformed(malformed, 1));
		}
		else if (result instanceof HeaderDecodeResult.UnsupportedVersion unsupported) {
			assertThat(decoder.supportedVersions().contains(unsupported.version())).isFalse();
			encode(RdmaErrorReplies.forUnsupportedVersion(unsupported, decoder.supportedVersions(), 1));
		}
		else {
			assertThat(send.length).isLessThan(8);
		}
	}

	private static byte[] encode(TransportHeader header) {
		ByteBuffer buffer = ByteBuffer.allocate(TransportHeaderEncoder.encodedLength(header));
		TransportHeaderEncoder.encode(header, new XdrEncoder(buffer));
		assertThat(buffer.remaining()).as("encodedLength of %s", header).isZero();
		return buffer.array();
	}

}
