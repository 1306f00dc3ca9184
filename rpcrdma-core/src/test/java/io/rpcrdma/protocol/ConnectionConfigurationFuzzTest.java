package io.rpcrdma.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rpcrdma.fuzz.DecodeBudget;
import io.rpcrdma.protocol.ccp.ConfigRdmaCodec;
import io.rpcrdma.protocol.ccp.ConfigRdmaReply;
import io.rpcrdma.protocol.ccp.ConfigRdmaRequest;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrTruncatedException;

/**
 * Fuzzes what a peer says about its connection before and beside its first call: RFC 8797
 * private data in the connect request or accept, and the Connection Configuration Protocol's
 * {@code config_rdma_req} and {@code config_rdma_reply} (RFC 5666 §6.2). Contract: private
 * data decodes or is ignored, never throws; CCP arguments decode or are truncated; whatever
 * decodes encodes back to the bytes it came from.
 * <p>
 * Input: the bytes, read as all three.
 */
class ConnectionConfigurationFuzzTest {

	@FuzzTest(maxDuration = "30s")
	void decodeConnectionConfiguration(byte[] input) {
		DecodeBudget.check(input.length, () -> decode(input));
	}

	private static void decode(byte[] input) {
		Optional<Rfc8797PrivateData> privateData = Rfc8797PrivateData.decode(input);
		if (privateData.isPresent()) {
			byte[] encoded = privateData.get().encode();
			byte[] received = Arrays.copyOf(input, Rfc8797PrivateData.LENGTH);
			// RFC 8797 §4.1: reserved flag bits are ignored on receipt.
			received[5] &= (byte) Rfc8797PrivateData.FLAG_REMOTE_INVALIDATE;
			assertThat(encoded).isEqualTo(received);
			assertThat(Rfc8797PrivateData.decode(encoded)).isEqualTo(privateData);
			assertThat(privateData.get().effective()).isEqualTo(privateData.get());
		}
		try {
			ConfigRdmaRequest request = ConfigRdmaCodec.decodeRequest(new XdrDecoder(ByteBuffer.wrap(input)));
			ByteBuffer encoded = ByteBuffer.allocate(ConfigRdmaCodec.ENCODED_LENGTH);
			ConfigRdmaCodec.encode(request, new XdrEncoder(encoded));
			assertThat(encoded.array()).isEqualTo(Arrays.copyOf(input, ConfigRdmaCodec.ENCODED_LENGTH));
			ConfigRdmaReply reply = ConfigRdmaCodec.decodeReply(new XdrDecoder(ByteBuffer.wrap(input)));
			ConfigRdmaCodec.encode(reply, new XdrEncoder(encoded.clear()));
			assertThat(encoded.array()).isEqualTo(Arrays.copyOf(input, ConfigRdmaCodec.ENCODED_LENGTH));
		}
		catch (XdrTruncatedException expected) {
			assertThat(input.length).isLessThan(ConfigRdmaCodec.ENCODED_LENGTH);
		}
	}

}
