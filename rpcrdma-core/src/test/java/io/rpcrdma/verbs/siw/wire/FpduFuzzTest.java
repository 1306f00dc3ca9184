package io.rpcrdma.verbs.siw.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rpcrdma.fuzz.DecodeBudget;

/**
 * Fuzzes the byte stream of an established iWARP connection: MPA framing and CRC (RFC 5044
 * §4), DDP headers and the per-queue stream rules (RFC 5041), RDMAP opcodes, Read Requests
 * and Terminates (RFC 5040), as {@link FpduParser} and {@link DdpReceiveValidator} see them
 * from a receive buffer that TCP fills in arbitrary pieces. Contract: FPDUs, or an
 * {@link IwarpWireException} that ends the stream; the same FPDUs and the same end whether
 * the stream arrives at once or split; every FPDU writes back to its bytes.
 * <p>
 * Input: a settings byte (bit 0 CRC negotiated; bit 1 non-zero pad refused; bit 2 a receive
 * buffer of 256 bytes rather than 64 KiB; bit 3 a receiver MULPDU of 1024), a byte saying
 * where the first delivery ends (in 256ths of the stream), then the stream.
 */
class FpduFuzzTest {

	private static final int SMALL_BUFFER = 256;

	private static final int LARGE_BUFFER = Mpa.fpduLength(Mpa.MAX_ULPDU_LENGTH);

	/** Receive buffers as the provider keeps them per connection: made once, outside the budget. */
	private static final ByteBuffer[] BUFFERS = { ByteBuffer.allocate(SMALL_BUFFER), ByteBuffer.allocate(LARGE_BUFFER) };

	/** Where each FPDU is written back, made once too: the checks allocate nothing per FPDU. */
	private static final ByteBuffer WRITTEN = ByteBuffer.allocate(LARGE_BUFFER);

	@FuzzTest(maxDuration = "30s")
	void parseFpduStream(byte[] input) {
		DecodeBudget.check(input.length, () -> parse(input));
	}

	private static void parse(byte[] input) {
		if (input.length < 2) {
			return;
		}
		int settings = input[0];
		boolean crc = (settings & 1) != 0;
		FpduParser.Config config = new FpduParser.Config(crc, (settings & 8) != 0 ? 1024 : Mpa.MAX_ULPDU_LENGTH,
				(settings & 2) != 0);
		ByteBuffer buffer = BUFFERS[(settings & 4) != 0 ? 0 : 1];
		byte[] stream = Arrays.copyOfRange(input, 2, input.length);
		int split = (input[1] & 0xFF) * stream.length / 256;
		Outcome whole = receive(config, buffer.clear(), stream, stream.length);
		Outcome pieces = receive(config, buffer.clear(), stream, split);
		assertThat(pieces.fpdus).as("FPDUs from deliveries split at %d", split).isEqualTo(whole.fpdus);
		assertThat(pieces.digest).as("FPDUs from deliveries split at %d", split).isEqualTo(whole.digest);
		assertThat(pieces.failure != null).as("failure %s vs %s", pieces.failure, whole.failure)
			.isEqualTo(whole.failure != null);
	}

	/**
	 * @param fpdus how many FPDUs were received
	 * @param digest what they said, every field a receiver reads
	 * @param failure what ended the stream, or null
	 */
	private record Outcome(int fpdus, long digest, IwarpWireException failure) {
	}

	/** A receive loop as the provider's: read what fits, parse all complete FPDUs, compact. */
	private static Outcome receive(FpduParser.Config config, ByteBuffer buffer, byte[] stream, int firstDelivery) {
		FpduParser parser = new FpduParser(config);
		DdpReceiveValidator validator = new DdpReceiveValidator();
		FpduWriter writer = new FpduWriter(config.crc());
		Fpdu fpdu = new Fpdu();
		int fpdus = 0;
		long digest = 0;
		int sent = 0;
		boolean first = true;
		try {
			while (true) {
				int room = Math.min(buffer.remaining(), stream.length - sent);
				if (first) {
					room = Math.min(room, firstDelivery);
					first = false;
				}
				buffer.put(stream, sent, room);
				sent += room;
				buffer.flip();
				while (parser.next(buffer, fpdu)) {
					check(fpdu, config, writer);
					validator.validate(fpdu);
					fpdus++;
					digest = digest(digest, fpdu);
				}
				buffer.compact();
				if (sent == stream.length && room == 0) {
					buffer.flip();
					parser.endOfStream(buffer);
					return new Outcome(fpdus, digest, null);
				}
			}
		}
		catch (IwarpWireException expected) {
			assertThat(expected.getMessage()).isNotBlank();
			return new Outcome(fpdus, digest, expected);
		}
	}

	private static long digest(long digest, Fpdu fpdu) {
		long[] fields = { fpdu.ulpduLength(), fpdu.crc(), fpdu.opcode().code(), fpdu.last() ? 1 : 0, fpdu.stag(),
				fpdu.taggedOffset(), fpdu.invalidateStag(), fpdu.queueNumber(), fpdu.msn(), fpdu.messageOffset(),
				fpdu.payloadLength() };
		for (long field : fields) {
			digest = digest * 1_000_003 + field;
		}
		return digest;
	}

	/**
	 * What a receiver reads of an FPDU stays inside it, and the FPDU writes back to its bytes.
	 * Checked in place, allocating nothing per FPDU: the budget is the parser's.
	 */
	private static void check(Fpdu fpdu, FpduParser.Config config, FpduWriter writer) {
		ByteBuffer source = fpdu.source();
		int start = fpdu.start();
		int end = start + fpdu.fpduLength();
		ByteBuffer payload = fpdu.payload();
		if (payload.position() < start || payload.limit() > end || payload.position() > payload.limit()) {
			throw new AssertionError(fpdu + ": payload [" + payload.position() + ", " + payload.limit()
					+ ") outside the FPDU [" + start + ", " + end + ")");
		}
		ByteBuffer written = WRITTEN.clear();
		if (fpdu.tagged()) {
			writer.writeTagged(written, fpdu.last(), fpdu.opcode(), fpdu.stag(), fpdu.taggedOffset(), payload,
					payload.position(), payload.remaining());
		}
		else {
			writer.writeUntagged(written, fpdu.last(), fpdu.opcode(), fpdu.invalidateStag(), fpdu.queueNumber(),
					fpdu.msn(), fpdu.messageOffset(), payload, payload.position(), payload.remaining());
			if (fpdu.opcode() == RdmapOpcode.RDMA_READ_REQUEST) {
				ReadRequest request = fpdu.readRequest();
				if (request.sinkStag() != fpdu.readSinkStag() || request.size() != fpdu.readSize()
						|| request.sourceTaggedOffset() != fpdu.readSourceTaggedOffset()) {
					throw new AssertionError(fpdu + ": " + request + " differs from the FPDU's own accessors");
				}
			}
			else if (fpdu.opcode() == RdmapOpcode.TERMINATE && fpdu.terminate().length() != fpdu.payloadLength()) {
				throw new AssertionError(fpdu + ": its Terminate does not take the whole payload");
			}
		}
		if (written.position() != end - start) {
			throw new AssertionError(fpdu + " writes back " + written.position() + " bytes, not " + (end - start));
		}
		int crcIndex = end - start - Mpa.CRC_FIELD;
		int pad = Mpa.padLength(fpdu.ulpduLength());
		for (int i = 0; i < end - start; i++) {
			int received = source.get(start + i);
			if (i == 2) {
				// Reserved bits are ignored on receipt: DDP's Resrv (RFC 5041 §5.1) and RDMAP's
				// Rsv (RFC 5040 §4.2).
				received &= ~0x3C;
			}
			else if (i == 3) {
				received &= ~0x30;
			}
			else if ((i >= crcIndex - pad && i < crcIndex && !config.rejectNonZeroPad())
					|| (i >= crcIndex && !config.crc())) {
				received = 0;
			}
			if ((byte) received != written.get(i)) {
				throw new AssertionError(fpdu + " writes back a different byte " + i);
			}
		}
	}

}
