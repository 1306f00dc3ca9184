package io.rpcrdma.verbs.siw.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Any message, any MSS: DDP segmentation into MULPDU-sized FPDUs loses nothing, marks only the
 * last segment, never exceeds the MULPDU, and a receiver fed the stream in arbitrary TCP-sized
 * pieces gets it all back in order.
 */
class SegmentationPropertiesTest {

	@Property(tries = 200)
	void segmentedMessageReassemblesAndRespectsMulpdu(@ForAll @IntRange(min = 0, max = 150_000) int messageLength,
			@ForAll @IntRange(min = Mpa.MIN_EMSS, max = 70_000) int emss, @ForAll boolean tagged, @ForAll boolean crc,
			@ForAll long seed) {
		byte[] message = new byte[messageLength];
		new Random(seed).nextBytes(message);
		int mulpdu = Mpa.mulpdu(emss);
		DdpSegmenter segmenter = new DdpSegmenter(mulpdu);
		long firstOffset = tagged ? seed >>> 1 : 0; // any tagged offset that cannot wrap
		if (tagged) {
			segmenter.startTagged(RdmapOpcode.RDMA_WRITE, 0x1234, firstOffset, ByteBuffer.wrap(message), 0, messageLength);
		}
		else {
			segmenter.startSend(RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE, 0xfeed, 1, ByteBuffer.wrap(message), 0, messageLength);
		}
		FpduWriter writer = new FpduWriter(crc);
		ByteBuffer stream = ByteBuffer.allocate(estimate(messageLength, mulpdu));
		List<Integer> fpduLengths = new ArrayList<>();
		while (segmenter.hasNext()) {
			int expectedLength = segmenter.nextFpduLength();
			int written = segmenter.writeNext(writer, stream);
			assertThat(written).isEqualTo(expectedLength);
			fpduLengths.add(written);
		}
		stream.flip();

		// Deliver the stream in random pieces, as TCP may.
		Random chunks = new Random(~seed);
		ByteBuffer receive = ByteBuffer.allocate(Mpa.fpduLength(Mpa.MAX_ULPDU_LENGTH));
		FpduParser parser = new FpduParser(FpduParser.Config.of(crc));
		DdpReceiveValidator validator = new DdpReceiveValidator();
		Fpdu fpdu = new Fpdu();
		ByteBuffer reassembled = ByteBuffer.allocate(messageLength);
		int segments = 0;
		boolean sawLast = false;
		long expectedOffset = firstOffset;
		while (stream.hasRemaining() || receive.position() > 0) {
			int piece = Math.min(Math.min(stream.remaining(), receive.remaining()), 1 + chunks.nextInt(3 * emss));
			receive.put(receive.position(), stream, stream.position(), piece);
			receive.position(receive.position() + piece);
			stream.position(stream.position() + piece);
			receive.flip();
			while (parser.next(receive, fpdu)) {
				validator.validate(fpdu);
				assertThat(sawLast).as("no segment after the one with L").isFalse();
				assertThat(fpdu.ulpduLength()).isLessThanOrEqualTo(mulpdu);
				assertThat(fpdu.fpduLength()).isEqualTo(fpduLengths.get(segments));
				if (emss <= Mpa.MAX_MULPDU) {
					assertThat(fpdu.fpduLength()).as("FPDU fits the EMSS").isLessThanOrEqualTo(emss);
				}
				if (tagged) {
					assertThat(fpdu.stag()).isEqualTo(0x1234);
					assertThat(fpdu.taggedOffset()).isEqualTo(expectedOffset);
				}
				else {
					assertThat(fpdu.msn()).isEqualTo(1);
					assertThat(fpdu.invalidateStag()).isEqualTo(0xfeed);
					assertThat(Integer.toUnsignedLong(fpdu.messageOffset())).isEqualTo(expectedOffset);
				}
				expectedOffset += fpdu.payloadLength();
				reassembled.put(fpdu.payload());
				sawLast = fpdu.last();
				segments++;
			}
			receive.compact();
			if (!stream.hasRemaining() && receive.position() > 0) {
				throw new AssertionError("bytes left that never formed an FPDU: " + receive.position());
			}
		}
		assertThat(sawLast).as("the last segment has L").isTrue();
		assertThat(segments).isEqualTo(fpduLengths.size());
		assertThat(reassembled.array()).isEqualTo(message);
		int perSegment = mulpdu - (tagged ? TaggedHeader.LENGTH : UntaggedHeader.LENGTH);
		assertThat(segments).isEqualTo(Math.max(1, (messageLength + perSegment - 1) / perSegment));
	}

	@Property
	void mulpduIsTheLargestUlpduWhosePaddedFpduFitsTheEmss(@ForAll @IntRange(min = Mpa.MIN_EMSS, max = 65_000) int emss) {
		int mulpdu = Mpa.mulpdu(emss);
		assertThat(Mpa.fpduLength(mulpdu)).isLessThanOrEqualTo(emss);
		assertThat(Mpa.fpduLength(mulpdu + 1)).isGreaterThan(emss);
	}

	private static int estimate(int messageLength, int mulpdu) {
		int perSegment = mulpdu - UntaggedHeader.LENGTH;
		int segments = Math.max(1, (messageLength + perSegment - 1) / perSegment);
		return messageLength + segments * (UntaggedHeader.LENGTH + 2 + 3 + 4);
	}

}
