package io.rpcrdma.verbs.siw.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Every header and frame decodes to what was encoded, whatever the field values. */
class HeaderPropertiesTest {

	@Property
	void taggedHeaderRoundTrips(@ForAll boolean last, @ForAll("taggedOpcodes") RdmapOpcode opcode, @ForAll int stag,
			@ForAll long taggedOffset, @ForAll boolean littleEndianBuffer) {
		TaggedHeader header = new TaggedHeader(last, opcode, stag, taggedOffset);
		ByteBuffer buffer = buffer(TaggedHeader.LENGTH, littleEndianBuffer);
		header.encode(buffer);
		assertThat(buffer.position()).isEqualTo(TaggedHeader.LENGTH);
		assertThat(TaggedHeader.decode(buffer, 0)).isEqualTo(header);
	}

	@Property
	void untaggedHeaderRoundTrips(@ForAll boolean last, @ForAll("untaggedOpcodes") RdmapOpcode opcode,
			@ForAll int invalidateStag, @ForAll int queueNumber, @ForAll int msn, @ForAll int messageOffset,
			@ForAll boolean littleEndianBuffer) {
		UntaggedHeader header = new UntaggedHeader(last, opcode, invalidateStag, queueNumber, msn, messageOffset);
		ByteBuffer buffer = buffer(UntaggedHeader.LENGTH, littleEndianBuffer);
		header.encode(buffer);
		assertThat(buffer.position()).isEqualTo(UntaggedHeader.LENGTH);
		assertThat(UntaggedHeader.decode(buffer, 0)).isEqualTo(header);
	}

	@Property
	void readRequestRoundTrips(@ForAll int sinkStag, @ForAll long sinkOffset, @ForAll int size, @ForAll int sourceStag,
			@ForAll long sourceOffset) {
		ReadRequest request = new ReadRequest(sinkStag, sinkOffset, size, sourceStag, sourceOffset);
		ByteBuffer buffer = ByteBuffer.allocate(ReadRequest.LENGTH);
		request.encode(buffer);
		assertThat(buffer.position()).isEqualTo(ReadRequest.LENGTH);
		assertThat(ReadRequest.decode(buffer, 0)).isEqualTo(request);
	}

	@Property
	void terminateRoundTrips(@ForAll("terminates") TerminateMessage terminate) {
		ByteBuffer buffer = ByteBuffer.allocate(terminate.length());
		terminate.encode(buffer);
		assertThat(buffer.position()).isEqualTo(terminate.length());
		assertThat(TerminateMessage.decode(buffer, 0, terminate.length())).isEqualTo(terminate);
	}

	@Property
	void mpaFrameRoundTrips(@ForAll("mpaFrames") MpaFrame frame) {
		MpaCodec codec = new MpaCodec();
		ByteBuffer wire = codec.encode(frame);
		assertThat(wire.remaining()).isEqualTo(MpaCodec.HEADER_LENGTH + frame.privateDataLength());
		assertThat(codec.decode(wire, frame.kind())).contains(frame);
		assertThat(wire.hasRemaining()).isFalse();
	}

	@Property
	void singleFpduRoundTripsThroughWriterAndParser(@ForAll("anyOpcode") RdmapOpcode opcode, @ForAll boolean crc,
			@ForAll boolean last, @ForAll int stagOrInvalidate, @ForAll long taggedOffset, @ForAll int msn,
			@ForAll int messageOffset, @ForAll @Size(max = 2000) byte[] payload) {
		if (opcode == RdmapOpcode.RDMA_READ_REQUEST || opcode == RdmapOpcode.TERMINATE) {
			return; // fixed layouts, covered by their own vectors and properties
		}
		FpduWriter writer = new FpduWriter(crc);
		ByteBuffer out = ByteBuffer.allocate(Mpa.fpduLength(UntaggedHeader.LENGTH + payload.length));
		ByteBuffer source = ByteBuffer.wrap(payload);
		int written = opcode.tagged()
				? writer.writeTagged(out, last, opcode, stagOrInvalidate, taggedOffset, source, 0, payload.length)
				: writer.writeUntagged(out, last, opcode, stagOrInvalidate, opcode.queueNumber(), msn, messageOffset, source,
						0, payload.length);
		assertThat(written % 4).isZero();
		Fpdu fpdu = new Fpdu();
		ByteBuffer in = out.flip();
		assertThat(new FpduParser(FpduParser.Config.of(crc)).next(in, fpdu)).isTrue();
		assertThat(in.hasRemaining()).isFalse();
		assertThat(fpdu.opcode()).isEqualTo(opcode);
		assertThat(fpdu.last()).isEqualTo(last);
		if (opcode.tagged()) {
			assertThat(fpdu.taggedHeader()).isEqualTo(new TaggedHeader(last, opcode, stagOrInvalidate, taggedOffset));
		}
		else {
			assertThat(fpdu.untaggedHeader())
				.isEqualTo(new UntaggedHeader(last, opcode, stagOrInvalidate, opcode.queueNumber(), msn, messageOffset));
		}
		assertThat(fpdu.payload()).isEqualTo(ByteBuffer.wrap(payload));
	}

	@Provide
	Arbitrary<RdmapOpcode> taggedOpcodes() {
		return Arbitraries.of(RdmapOpcode.RDMA_WRITE, RdmapOpcode.RDMA_READ_RESPONSE);
	}

	@Provide
	Arbitrary<RdmapOpcode> untaggedOpcodes() {
		return Arbitraries.of(RdmapOpcode.class).filter(opcode -> !opcode.tagged());
	}

	@Provide
	Arbitrary<RdmapOpcode> anyOpcode() {
		return Arbitraries.of(RdmapOpcode.class);
	}

	@Provide
	Arbitrary<TerminateMessage> terminates() {
		Arbitrary<Integer> layer = Arbitraries.integers().between(0, 15);
		Arbitrary<Integer> errorType = Arbitraries.integers().between(0, 15);
		Arbitrary<Integer> errorCode = Arbitraries.integers().between(0, 255);
		Arbitrary<Integer> quoting = Arbitraries.integers().between(0, 3); // none, tagged, untagged, untagged + RDMAP
		Arbitrary<Integer> segmentLength = Arbitraries.integers().between(0, 0xFFFF);
		Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofSize(UntaggedHeader.LENGTH + ReadRequest.LENGTH);
		return Combinators.combine(layer, errorType, errorCode, quoting, segmentLength, bytes, Arbitraries.of(true, false))
			.as((l, t, c, q, length, raw, m) -> {
				if (q == 0) {
					return new TerminateMessage(l, t, c, false, 0, null, null);
				}
				boolean tagged = q == 1;
				byte[] ddp = java.util.Arrays.copyOf(raw, tagged ? TaggedHeader.LENGTH : UntaggedHeader.LENGTH);
				ddp[0] = (byte) (tagged ? (ddp[0] | 0x80) : (ddp[0] & 0x7F));
				byte[] rdmap = q == 3 ? java.util.Arrays.copyOfRange(raw, UntaggedHeader.LENGTH, raw.length) : null;
				return new TerminateMessage(l, t, c, m, length, ddp, rdmap);
			});
	}

	@Provide
	Arbitrary<MpaFrame> mpaFrames() {
		Arbitrary<MpaFrame.Kind> kind = Arbitraries.of(MpaFrame.Kind.class);
		Arbitrary<Integer> flags = Arbitraries.integers().between(0, 7);
		Arbitrary<Integer> revision = Arbitraries.integers().between(1, 2);
		Arbitrary<MpaIrdOrd> irdOrd = Combinators
			.combine(Arbitraries.integers().between(0, MpaIrdOrd.MAX_VALUE), Arbitraries.integers().between(0, MpaIrdOrd.MAX_VALUE),
					Arbitraries.integers().between(0, 15))
			.as((ird, ord, bits) -> new MpaIrdOrd(ird, ord, (bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0, (bits & 8) != 0))
			.injectNull(0.3);
		Arbitrary<byte[]> privateData = Arbitraries.bytes().array(byte[].class).ofMaxSize(MpaCodec.MAX_PRIVATE_DATA_LENGTH - MpaIrdOrd.LENGTH);
		return Combinators.combine(kind, flags, revision, irdOrd, privateData).as((k, f, r, io, pd) -> {
			boolean reject = k == MpaFrame.Kind.REPLY && (f & 4) != 0;
			MpaIrdOrd enhanced = r == 2 ? io : null;
			return new MpaFrame(k, (f & 1) != 0, (f & 2) != 0, reject, r, enhanced, pd);
		});
	}

	private static ByteBuffer buffer(int size, boolean littleEndian) {
		return ByteBuffer.allocate(size).order(littleEndian ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
	}

	@Property
	void padMakesEveryFpduAMultipleOfFour(@ForAll @IntRange(min = 0, max = 0xFFFF) int ulpduLength) {
		assertThat(Mpa.fpduLength(ulpduLength) % 4).isZero();
		assertThat(Mpa.padLength(ulpduLength)).isBetween(0, 3);
	}

}
