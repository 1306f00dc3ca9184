package io.rpcrdma.verbs.siw.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rpcrdma.fuzz.DecodeBudget;

/**
 * Fuzzes what a TCP peer sends before the first FPDU: the MPA Request or Reply (RFC 5044
 * §7.1, RFC 6581 §7.1), decoded as the stream delivers it, and what the negotiation makes of
 * it. Contract: a frame, "not yet", or an {@link IwarpWireException} naming the rule broken;
 * a frame decodes the same from every delivery of its bytes, and encodes back to them.
 * <p>
 * Input: one byte of settings (bit 0 a Reply rather than a Request is due; bit 1 the siw
 * private data limit of 256 rather than 512; bit 2 our Request was enhanced; bit 3 it asked
 * for peer-to-peer mode; bit 4 CRC required), then the stream's bytes.
 */
class MpaFrameFuzzTest {

	@FuzzTest(maxDuration = "30s")
	void decodeMpaFrame(byte[] input) {
		DecodeBudget.check(input.length, () -> decode(input));
	}

	private static void decode(byte[] input) {
		if (input.length == 0) {
			return;
		}
		int settings = input[0];
		MpaFrame.Kind kind = (settings & 1) != 0 ? MpaFrame.Kind.REPLY : MpaFrame.Kind.REQUEST;
		MpaCodec codec = new MpaCodec((settings & 2) != 0 ? MpaCodec.SIW_MAX_PRIVATE_DATA_LENGTH
				: MpaCodec.MAX_PRIVATE_DATA_LENGTH);
		byte[] stream = Arrays.copyOfRange(input, 1, input.length);
		Optional<MpaFrame> frame;
		try {
			frame = codec.decode(ByteBuffer.wrap(stream), kind);
		}
		catch (MpaFrameException expected) {
			assertThat(expected.getMessage()).isNotBlank();
			return;
		}
		if (frame.isEmpty()) {
			return;
		}
		MpaFrame decoded = frame.get();
		int length = codec.encodedLength(decoded);
		// Every earlier delivery of the same bytes was "not yet", never an error (checked
		// without allocating: the budget is the decoder's).
		ByteBuffer delivered = ByteBuffer.wrap(stream);
		for (int prefix = 0; prefix < length; prefix++) {
			if (codec.decode(delivered.limit(prefix), kind).isPresent()) {
				throw new AssertionError("a frame decoded from the first " + prefix + " of its " + length + " bytes");
			}
		}
		// Encoding gives back the bytes, but for the reserved flag bits, which are ignored.
		byte[] encoded = codec.encode(decoded).array();
		byte[] received = Arrays.copyOf(stream, length);
		int flags = 16;
		int known = MpaFrame.FLAG_MARKERS | MpaFrame.FLAG_CRC | MpaFrame.FLAG_REJECT
				| (decoded.revision() == MpaFrame.REVISION_2 ? MpaFrame.FLAG_ENHANCED : 0);
		received[flags] &= (byte) known;
		assertThat(encoded).isEqualTo(received);
		assertThat(codec.decode(ByteBuffer.wrap(encoded), kind)).contains(decoded);
		negotiate(settings, decoded);
	}

	private static void negotiate(int settings, MpaFrame received) {
		MpaNegotiator negotiator = new MpaNegotiator((settings & 16) != 0 ? CrcPolicy.REQUIRE : CrcPolicy.OFF_UNLESS_ASKED);
		try {
			if (received.kind() == MpaFrame.Kind.REQUEST) {
				if (negotiator.refusal(received).isPresent()) {
					negotiator.rejectReply(received, new byte[0]);
					return;
				}
				MpaFrame reply = negotiator.acceptReply(received, received.enhanced() ? MpaIrdOrd.of(16, 16) : null,
						new byte[0]);
				assertThat(negotiator.responderParameters(received, reply).crc()).isEqualTo(reply.crc());
			}
			else {
				MpaIrdOrd ours = (settings & 4) == 0 ? null
						: new MpaIrdOrd(16, 16, (settings & 8) != 0, true, true, false);
				negotiator.initiatorParameters(negotiator.request(ours, new byte[0]), received);
			}
		}
		catch (MpaRejectedException | MpaNegotiationException expected) {
			assertThat(expected.getMessage()).isNotBlank();
		}
	}

}
