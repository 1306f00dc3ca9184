package io.rpcrdma.verbs.siw.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rpcrdma.conformance.ConformanceTool;
import io.rpcrdma.xdr.Hex;

/**
 * Third-party check of the wire format: real TCP connections on 127.0.0.1 carry an MPA
 * Request/Reply exchange and FPDUs of every RDMAP opcode in both directions, once without and
 * once with CRC, while tshark captures them; Wireshark's iWARP dissectors must then decode
 * every field as we meant it and find every CRC good.
 * <p>
 * Wireshark recognises MPA heuristically: it needs the Request and Reply at the start of the
 * TCP conversation to learn that the stream is MPA and whether CRC is on, and it expects each
 * FPDU to start a TCP segment. So every frame is written whole and read whole by the peer
 * before the next is written, and the dissector is asked to try heuristics before port-based
 * dissectors ({@code tcp.try_heuristic_first}), since an ephemeral port may belong to some
 * registered protocol. Readiness and completion of the capture are established with marker
 * connections whose packets tshark must report, never with sleeps.
 * <p>
 * Skipped, loudly, when tshark is absent. Point {@code -Drpcrdma.tshark} at a tshark binary to
 * choose one (or at a missing file to force the skip).
 */
@Tag("conformance")
class IwarpWireDissectorConformanceTest {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

	private static Path tshark;

	@TempDir
	Path directory;

	// Checked before each test rather than once for the class so that the build reports the
	// tests as skipped, with the reason, instead of silently running none.
	@BeforeEach
	void locateTshark() {
		tshark = ConformanceTool.TSHARK.require("iWARP wire conformance tests (MPA/DDP/RDMAP decoded by Wireshark)");
	}

	@Test
	void wiresharkDecodesMpaSetupAndEveryRdmapMessageWithAndWithoutCrc() throws Exception {
		try (ServerSocket server = new ServerSocket(0, 8, LOOPBACK); ServerSocket marker = new ServerSocket(0, 8, LOOPBACK)) {
			Path pcap = this.directory.resolve("iwarp.pcapng");
			List<Sent> sent = new ArrayList<>();
			TsharkCapture capture = TsharkCapture.start(tshark, pcap, server.getLocalPort(), marker.getLocalPort());
			try {
				capture.awaitMarkerConnection(marker);
				sent.addAll(converse(server, CrcPolicy.OFF_UNLESS_ASKED));
				sent.addAll(converse(server, CrcPolicy.REQUIRE));
				sent.addAll(converseRejected(server));
				capture.awaitMarkerConnection(marker);
			}
			finally {
				capture.stop();
			}
			List<Map<String, String>> frames = dissect(pcap, server.getLocalPort());
			assertDecodedAsSent(frames, sent);
			assertCrcVerdicts(pcap, server.getLocalPort(), sent);
		}
	}

	// ---------------------------------------------------------------- the conversation

	/**
	 * One connection: MPA Request/Reply, then FPDUs of every opcode in both directions.
	 * @return what was sent, in order, with the fields Wireshark must show
	 */
	private static List<Sent> converse(ServerSocket server, CrcPolicy initiatorPolicy) throws IOException {
		List<Sent> sent = new ArrayList<>();
		try (Socket initiator = new Socket()) {
			initiator.setTcpNoDelay(true);
			initiator.connect(server.getLocalSocketAddress());
			try (Socket responder = server.accept()) {
				responder.setTcpNoDelay(true);
				Peer a = new Peer(initiator, sent);
				Peer b = new Peer(responder, sent);

				MpaCodec codec = new MpaCodec();
				MpaNegotiator initiatorRules = new MpaNegotiator(initiatorPolicy);
				MpaNegotiator responderRules = new MpaNegotiator(CrcPolicy.OFF_UNLESS_ASKED);
				MpaFrame request = initiatorRules.request(MpaIrdOrd.of(16, 8), "rpcrdma".getBytes(StandardCharsets.US_ASCII));
				MpaFrame received = a.sendMpa(b, codec, request);
				assertThat(received).isEqualTo(request);
				MpaFrame reply = responderRules.acceptReply(received, MpaIrdOrd.of(8, 16),
						"ok".getBytes(StandardCharsets.US_ASCII));
				MpaFrame receivedReply = b.sendMpa(a, codec, reply);
				MpaConnectionParameters parameters = initiatorRules.initiatorParameters(request, receivedReply);
				assertThat(parameters.crc()).isEqualTo(initiatorPolicy == CrcPolicy.REQUIRE);
				a.enterFullOperation(parameters.crc());
				b.enterFullOperation(responderRules.responderParameters(received, reply).crc());

				// initiator -> responder: the four Sends, a two-segment RDMA Write, a Read Request
				byte[] text = "hello iWARP".getBytes(StandardCharsets.US_ASCII);
				a.sendUntagged(b, RdmapOpcode.SEND, 0, 1, text);
				a.sendUntagged(b, RdmapOpcode.SEND_WITH_INVALIDATE, 0x1234abcd, 2, text);
				a.sendUntagged(b, RdmapOpcode.SEND_WITH_SE, 0, 3, text);
				a.sendUntagged(b, RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE, 0x0badf00d, 4, text);
				byte[] block = new byte[80];
				for (int i = 0; i < block.length; i++) {
					block[i] = (byte) i;
				}
				a.sendTagged(b, RdmapOpcode.RDMA_WRITE, 0xcafe0001, 0x7f0012345000L, block);
				ReadRequest read = new ReadRequest(0x00000101, 0x1000, 24, 0xcafe0002, 0x7f0012340000L);
				a.sendReadRequest(b, 1, read);

				// responder -> initiator: the Read Response, a Send, and a Terminate quoting a Write
				byte[] readData = new byte[24];
				java.util.Arrays.fill(readData, (byte) 0x5a);
				b.sendTagged(a, RdmapOpcode.RDMA_READ_RESPONSE, read.sinkStag(), read.sinkTaggedOffset(), readData);
				b.sendUntagged(a, RdmapOpcode.SEND, 0, 1, "reply".getBytes(StandardCharsets.US_ASCII));
				byte[] writeHeader = Hex.hex("c1 40 ca fe 00 01 00 00 7f 00 12 34 50 00");
				b.sendTerminate(a, 1, TerminateMessage.of(TerminateError.DDP_TAGGED_INVALID_STAG, 22, writeHeader, null));
			}
		}
		return sent;
	}

	/** A connection whose initiator asks for markers and is rejected (RFC 5044 §7.1). */
	private static List<Sent> converseRejected(ServerSocket server) throws IOException {
		List<Sent> sent = new ArrayList<>();
		try (Socket initiator = new Socket()) {
			initiator.setTcpNoDelay(true);
			initiator.connect(server.getLocalSocketAddress());
			try (Socket responder = server.accept()) {
				Peer a = new Peer(initiator, sent);
				Peer b = new Peer(responder, sent);
				MpaCodec codec = new MpaCodec();
				MpaNegotiator rules = new MpaNegotiator(CrcPolicy.OFF_UNLESS_ASKED);
				MpaFrame request = new MpaFrame(MpaFrame.Kind.REQUEST, true, false, false, MpaFrame.REVISION_2,
						MpaIrdOrd.of(4, 4), "markers?".getBytes(StandardCharsets.US_ASCII));
				MpaFrame received = a.sendMpa(b, codec, request);
				assertThat(rules.refusal(received)).isPresent();
				MpaFrame reject = b.sendMpa(a, codec, rules.rejectReply(received, "no".getBytes(StandardCharsets.US_ASCII)));
				assertThat(reject.reject()).isTrue();
				org.assertj.core.api.Assertions.assertThatThrownBy(() -> rules.initiatorParameters(request, reject))
					.isInstanceOf(MpaRejectedException.class);
			}
		}
		return sent;
	}

	/** One end of a connection: writes whole frames and has the other end read them whole. */
	private static final class Peer {

		private static final int SEGMENT_MULPDU = 64;

		private final Socket socket;

		private final List<Sent> log;

		private FpduWriter writer;

		private FpduParser parser;

		private final DdpReceiveValidator validator = new DdpReceiveValidator();

		private final Fpdu fpdu = new Fpdu();

		Peer(Socket socket, List<Sent> log) {
			this.socket = socket;
			this.log = log;
		}

		void enterFullOperation(boolean crc) {
			this.writer = new FpduWriter(crc);
			this.parser = new FpduParser(FpduParser.Config.of(crc));
		}

		MpaFrame sendMpa(Peer to, MpaCodec codec, MpaFrame frame) throws IOException {
			ByteBuffer wire = codec.encode(frame);
			byte[] bytes = transfer(to, wire);
			Map<String, String> expect = new LinkedHashMap<>();
			expect.put(frame.kind() == MpaFrame.Kind.REQUEST ? "iwarp_mpa.key.req" : "iwarp_mpa.key.rep",
					hex(frame.kind().key()));
			expect.put("iwarp_mpa.marker_flag", bool(frame.markers()));
			expect.put("iwarp_mpa.crc_flag", bool(frame.crc()));
			expect.put("iwarp_mpa.rej_flag", bool(frame.reject()));
			expect.put("iwarp_mpa.res", hex8(frame.flags() & 0x1F));
			expect.put("iwarp_mpa.rev", Integer.toString(frame.revision()));
			expect.put("iwarp_mpa.pdlength", Integer.toString(frame.privateDataLength()));
			expect.put("iwarp_mpa.privatedata", hex(java.util.Arrays.copyOfRange(bytes, MpaCodec.HEADER_LENGTH, bytes.length)));
			this.log.add(new Sent(this.socket.getLocalPort(), frame.kind().name(), expect, 0, false));
			return codec.decode(ByteBuffer.wrap(bytes), frame.kind()).orElseThrow();
		}

		void sendUntagged(Peer to, RdmapOpcode opcode, int invalidateStag, int msn, byte[] payload) throws IOException {
			ByteBuffer out = ByteBuffer.allocate(256);
			this.writer.writeUntagged(out, true, opcode, invalidateStag, opcode.queueNumber(), msn, 0, ByteBuffer.wrap(payload),
					0, payload.length);
			Map<String, String> expect = ddp(false, true, opcode);
			expect.put("iwarp_ddp.qn", Integer.toString(opcode.queueNumber()));
			expect.put("iwarp_ddp.msn", Integer.toString(msn));
			expect.put("iwarp_ddp.mo", "0");
			if (opcode.invalidates()) {
				expect.put("iwarp_rdma.inval_stag", Integer.toUnsignedString(invalidateStag));
			}
			deliver(to, out, expect);
		}

		void sendTagged(Peer to, RdmapOpcode opcode, int stag, long taggedOffset, byte[] message) throws IOException {
			DdpSegmenter segmenter = new DdpSegmenter(SEGMENT_MULPDU);
			segmenter.startTagged(opcode, stag, taggedOffset, ByteBuffer.wrap(message), 0, message.length);
			long offset = taggedOffset;
			while (segmenter.hasNext()) {
				int length = segmenter.nextPayloadLength();
				ByteBuffer out = ByteBuffer.allocate(256);
				segmenter.writeNext(this.writer, out);
				boolean last = !segmenter.hasNext();
				Map<String, String> expect = ddp(true, last, opcode);
				expect.put("iwarp_ddp.stag", hex32(stag));
				expect.put("iwarp_ddp.tagged_offset", hex64(offset));
				deliver(to, out, expect);
				offset += length;
			}
		}

		void sendReadRequest(Peer to, int msn, ReadRequest request) throws IOException {
			ByteBuffer out = ByteBuffer.allocate(256);
			this.writer.writeReadRequest(out, msn, request);
			Map<String, String> expect = ddp(false, true, RdmapOpcode.RDMA_READ_REQUEST);
			expect.put("iwarp_ddp.qn", "1");
			expect.put("iwarp_ddp.msn", Integer.toString(msn));
			expect.put("iwarp_ddp.mo", "0");
			expect.put("iwarp_rdma.sinkstag", hex32(request.sinkStag()));
			expect.put("iwarp_rdma.sinkto", hex64(request.sinkTaggedOffset()));
			expect.put("iwarp_rdma.rdmardsz", Integer.toUnsignedString(request.size()));
			expect.put("iwarp_rdma.srcstag", hex32(request.sourceStag()));
			expect.put("iwarp_rdma.srcto", hex64(request.sourceTaggedOffset()));
			deliver(to, out, expect);
		}

		void sendTerminate(Peer to, int msn, TerminateMessage terminate) throws IOException {
			ByteBuffer out = ByteBuffer.allocate(256);
			this.writer.writeTerminate(out, msn, terminate);
			Map<String, String> expect = ddp(false, true, RdmapOpcode.TERMINATE);
			expect.put("iwarp_ddp.qn", "2");
			expect.put("iwarp_ddp.msn", Integer.toString(msn));
			expect.put("iwarp_rdma.term_layer", hex8(terminate.layer()));
			expect.put("iwarp_rdma.term_etype_ddp", hex8(terminate.errorType()));
			expect.put("iwarp_rdma.term_errcode_ddp_tagged", hex8(terminate.errorCode()));
			expect.put("iwarp_rdma.term_hdrct_m", bool(terminate.segmentLengthValid()));
			expect.put("iwarp_rdma.hdrct_d", bool(terminate.ddpHeaderIncluded()));
			expect.put("iwarp_rdma.hdrct_r", bool(terminate.rdmapHeaderIncluded()));
			expect.put("iwarp_rdma.term_ddp_seg_len", String.format("%04x", terminate.ddpSegmentLength()));
			expect.put("iwarp_rdma.term_ddp_h", hex(terminate.ddpHeader()));
			deliver(to, out, expect);
		}

		private static Map<String, String> ddp(boolean tagged, boolean last, RdmapOpcode opcode) {
			Map<String, String> expect = new LinkedHashMap<>();
			expect.put("iwarp_ddp.tagged_flag", bool(tagged));
			expect.put("iwarp_ddp.last_flag", bool(last));
			expect.put("iwarp_ddp.dv", "1");
			expect.put("iwarp_rdma.version", "1");
			expect.put("iwarp_rdma.opcode", hex8(opcode.code()));
			return expect;
		}

		private void deliver(Peer to, ByteBuffer out, Map<String, String> expect) throws IOException {
			out.flip();
			int ulpduLength = Short.toUnsignedInt(out.getShort(0));
			byte[] bytes = transfer(to, out);
			expect.put("iwarp_mpa.ulpdulength", Integer.toString(ulpduLength));
			// What the CRC field holds, read big-endian as Wireshark reads it.
			long crcField = Integer.toUnsignedLong(ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt());
			boolean crc = this.writer.crc();
			expect.put(crc ? "iwarp_mpa.crc_check" : "iwarp_mpa.crc", String.format("0x%08x", crcField));
			this.log.add(new Sent(this.socket.getLocalPort(), "FPDU", expect, crcField, crc));
			// The receiving side parses it too: our own parser must accept what we send.
			ByteBuffer in = ByteBuffer.wrap(bytes);
			assertThat(to.parser.next(in, to.fpdu)).isTrue();
			assertThat(in.hasRemaining()).isFalse();
			to.validator.validate(to.fpdu);
		}

		// Write the whole frame and have the peer read it whole before anything else is
		// written, so that each frame travels in TCP segments of its own.
		private byte[] transfer(Peer to, ByteBuffer frame) throws IOException {
			byte[] bytes = new byte[frame.remaining()];
			frame.get(bytes);
			this.socket.getOutputStream().write(bytes);
			this.socket.getOutputStream().flush();
			byte[] received = to.socket.getInputStream().readNBytes(bytes.length);
			assertThat(received).isEqualTo(bytes);
			return bytes;
		}

	}

	/** A frame we sent: who sent it and what Wireshark must show for it. */
	private record Sent(int sourcePort, String kind, Map<String, String> fields, long crcField, boolean crc) {
	}

	// ---------------------------------------------------------------- reading the capture back

	private static final List<String> FIELDS = List.of("frame.number", "tcp.srcport", "iwarp_mpa.key.req",
			"iwarp_mpa.key.rep", "iwarp_mpa.marker_flag", "iwarp_mpa.crc_flag", "iwarp_mpa.rej_flag", "iwarp_mpa.res",
			"iwarp_mpa.rev", "iwarp_mpa.pdlength", "iwarp_mpa.privatedata", "iwarp_mpa.ulpdulength", "iwarp_mpa.crc",
			"iwarp_mpa.crc_check", "iwarp_ddp.tagged_flag", "iwarp_ddp.last_flag", "iwarp_ddp.dv", "iwarp_ddp.stag",
			"iwarp_ddp.tagged_offset", "iwarp_ddp.qn", "iwarp_ddp.msn", "iwarp_ddp.mo", "iwarp_rdma.version",
			"iwarp_rdma.opcode", "iwarp_rdma.inval_stag", "iwarp_rdma.sinkstag", "iwarp_rdma.sinkto",
			"iwarp_rdma.rdmardsz", "iwarp_rdma.srcstag", "iwarp_rdma.srcto", "iwarp_rdma.term_layer",
			"iwarp_rdma.term_etype_ddp", "iwarp_rdma.term_errcode_ddp_tagged", "iwarp_rdma.term_hdrct_m",
			"iwarp_rdma.hdrct_d", "iwarp_rdma.hdrct_r", "iwarp_rdma.term_ddp_seg_len", "iwarp_rdma.term_ddp_h");

	private static List<Map<String, String>> dissect(Path pcap, int port) throws Exception {
		List<String> command = new ArrayList<>(List.of(tshark.toString(), "-r", pcap.toString(), "-n",
				"-o", "tcp.try_heuristic_first:TRUE", "-Y", "tcp.port == " + port + " && iwarp_mpa", "-T", "fields",
				"-E", "header=n", "-E", "separator=/t", "-E", "occurrence=a", "-E", "aggregator=;"));
		for (String field : FIELDS) {
			command.add("-e");
			command.add(field);
		}
		List<Map<String, String>> frames = new ArrayList<>();
		for (String line : TsharkCapture.run(command)) {
			String[] values = line.split("\t", -1);
			assertThat(values).as("tshark output line %s", line).hasSize(FIELDS.size());
			Map<String, String> frame = new LinkedHashMap<>();
			for (int i = 0; i < values.length; i++) {
				if (!values[i].isEmpty()) {
					frame.put(FIELDS.get(i), values[i]);
				}
			}
			frames.add(frame);
		}
		return frames;
	}

	private static void assertDecodedAsSent(List<Map<String, String>> frames, List<Sent> sent) {
		System.out.println("tshark decoded " + frames.size() + " MPA frames:");
		frames.forEach(System.out::println);
		assertThat(frames).as("one MPA frame decoded by Wireshark per frame sent").hasSize(sent.size());
		assertThat(frames.stream().map(frame -> frame.get("iwarp_rdma.opcode")).filter(java.util.Objects::nonNull)
			.map(IwarpWireDissectorConformanceTest::normalize).distinct())
			.as("every RDMAP opcode of RFC 5040 was sent and decoded")
			.containsExactlyInAnyOrderElementsOf(java.util.Arrays.stream(RdmapOpcode.values())
				.map(opcode -> normalize(hex8(opcode.code()))).toList());
		for (int i = 0; i < sent.size(); i++) {
			Sent expected = sent.get(i);
			Map<String, String> decoded = frames.get(i);
			assertThat(decoded.get("tcp.srcport")).as("sender of frame %d (%s)", i, expected.kind())
				.isEqualTo(Integer.toString(expected.sourcePort()));
			for (Map.Entry<String, String> field : expected.fields().entrySet()) {
				assertThat(normalize(decoded.get(field.getKey())))
					.as("frame %d (%s) field %s in %s", i, expected.kind(), field.getKey(), decoded)
					.isEqualTo(normalize(field.getValue()));
			}
		}
	}

	/** Wireshark shows whether a CRC is good only in the field's text, so read that text. */
	private static void assertCrcVerdicts(Path pcap, int port, List<Sent> sent) throws Exception {
		long withCrc = sent.stream().filter(Sent::crc).count();
		assertThat(withCrc).isPositive();
		List<String> text = TsharkCapture.run(List.of(tshark.toString(), "-r", pcap.toString(), "-n", "-o",
				"tcp.try_heuristic_first:TRUE", "-Y", "tcp.port == " + port + " && iwarp_mpa", "-V", "-O", "iwarp_mpa"));
		long good = text.stream().filter(line -> line.contains("(Good CRC32)")).count();
		long bad = text.stream().filter(line -> line.contains("Bad CRC32")).count();
		assertThat(bad).as("FPDUs whose CRC Wireshark calls bad").isZero();
		assertThat(good).as("FPDUs whose CRC Wireshark calls good").isEqualTo(withCrc);
		for (Sent frame : sent) {
			if (frame.crc()) {
				assertThat(text).anySatisfy(line -> assertThat(line)
					.contains(String.format("CRC check: 0x%08x (Good CRC32)", frame.crcField())));
			}
		}
	}

	// Wireshark's text for booleans and numbers varies a little between versions.
	private static String normalize(String value) {
		if (value == null) {
			return null;
		}
		String v = value.trim().toLowerCase(Locale.ROOT);
		if (v.equals("true")) {
			return "1";
		}
		if (v.equals("false")) {
			return "0";
		}
		v = v.replace(":", "");
		if (v.startsWith("0x")) {
			String digits = v.substring(2).replaceFirst("^0+(?=.)", "");
			return "0x" + digits;
		}
		return v;
	}

	private static String bool(boolean value) {
		return value ? "1" : "0";
	}

	private static String hex8(int value) {
		return String.format("0x%02x", value);
	}

	private static String hex32(int value) {
		return String.format("0x%08x", value);
	}

	private static String hex64(long value) {
		return String.format("0x%016x", value);
	}

	private static String hex(byte[] bytes) {
		return HexFormat.of().formatHex(bytes);
	}

}
