package io.rpcrdma.verbs.siw;

import static io.rpcrdma.verbs.AccessFlag.LOCAL_WRITE;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_READ;
import static io.rpcrdma.verbs.AccessFlag.REMOTE_WRITE;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.rpcrdma.conformance.ConformanceTool;
import io.rpcrdma.verbs.CompletionStatus;
import io.rpcrdma.verbs.ConnectParameters;
import io.rpcrdma.verbs.ConnectionEventType;
import io.rpcrdma.verbs.MemoryRegion;
import io.rpcrdma.verbs.PrivateData;
import io.rpcrdma.verbs.RdmaConnection;
import io.rpcrdma.verbs.RdmaListener;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviderConfig;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.RemoteAddress;
import io.rpcrdma.verbs.ScatterGatherEntry;
import io.rpcrdma.verbs.SendWorkRequest;
import io.rpcrdma.verbs.conformance.Endpoint;
import io.rpcrdma.verbs.siw.wire.TsharkCapture;

/**
 * Third-party check of the provider's own traffic: two siw providers talk over 127.0.0.1
 * while tshark captures, once without and once with MPA CRC, and Wireshark's iWARP
 * dissectors must decode the MPA exchange and every message with the STags, tagged offsets,
 * queue numbers, MSNs and MOs the provider meant, a good CRC on every FPDU when CRC is on,
 * and the Terminate that a bad STag provokes with its layer, error type and code.
 * <p>
 * Messages are small, so each FPDU lies inside one TCP segment, as Wireshark's MPA dissector
 * needs; a segment may carry several FPDUs (a Send and the Write posted behind it),
 * so fields are matched per FPDU, not per segment. Skipped, loudly, without tshark.
 */
@Tag("conformance")
class SiwWireDissectorConformanceTest {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private static final List<String> FIELDS = List.of("frame.number", "tcp.srcport", "iwarp_mpa.key.req",
			"iwarp_mpa.key.rep", "iwarp_mpa.crc_flag", "iwarp_mpa.rej_flag", "iwarp_mpa.rev", "iwarp_mpa.privatedata",
			"iwarp_mpa.ulpdulength", "iwarp_ddp.tagged_flag", "iwarp_ddp.last_flag", "iwarp_rdma.opcode",
			"iwarp_ddp.stag", "iwarp_ddp.tagged_offset", "iwarp_ddp.qn", "iwarp_ddp.msn", "iwarp_ddp.mo",
			"iwarp_rdma.inval_stag", "iwarp_rdma.sinkstag", "iwarp_rdma.sinkto", "iwarp_rdma.rdmardsz",
			"iwarp_rdma.srcstag", "iwarp_rdma.srcto", "iwarp_rdma.term_layer", "iwarp_rdma.term_etype_rdma",
			"iwarp_rdma.term_errcode_rdma", "iwarp_rdma.hdrct_d", "iwarp_rdma.hdrct_r");

	@org.junit.jupiter.api.io.TempDir
	Path directory;

	private Path tshark;

	@BeforeEach
	void locateTshark() {
		this.tshark = ConformanceTool.TSHARK.require("siw provider wire conformance (its own traffic decoded by Wireshark)");
	}

	@ParameterizedTest(name = "CRC {0}")
	@ValueSource(booleans = { false, true })
	void wiresharkDecodesEveryMessageTheProviderSends(boolean crc) throws Exception {
		// No nudge: the frames asserted below are exactly the ones the test posts, however long
		// the server, which never sends before the Read Response, stays silent on a busy host.
		RdmaProviderConfig base = RdmaProviderConfig.defaults().with(SiwSettings.FIRST_MESSAGE_NUDGE_MILLIS, "0");
		RdmaProviderConfig clientConfig = crc ? base.with(SiwSettings.CRC, "require") : base;
		try (RdmaProvider serverProvider = RdmaProviders.open("siw", RdmaProviderConfig.defaults());
				RdmaProvider clientProvider = RdmaProviders.open("siw", clientConfig);
				ServerSocket marker = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
			Endpoint server = new Endpoint(serverProvider, null, DEADLINE, UnaryOperator.identity());
			Endpoint client = new Endpoint(clientProvider, null, DEADLINE, UnaryOperator.identity());
			server.postReceive(1, server.register(128, 0, LOCAL_WRITE));
			server.postReceive(2, server.register(128, 0, LOCAL_WRITE));
			MemoryRegion target = server.registerPattern(256, 3, LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ);
			MemoryRegion chunk = server.register(64, 0, LOCAL_WRITE, REMOTE_READ);
			CompletableFuture<RdmaConnection> accepted = new CompletableFuture<>();
			RdmaListener listener = serverProvider.listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
					(request) -> accepted.complete(request.accept(server.qp,
							new PrivateData("ok".getBytes(StandardCharsets.US_ASCII)), server.events)));
			int port = listener.localAddress().getPort();
			Path pcap = this.directory.resolve("siw.pcapng");
			TsharkCapture capture = TsharkCapture.start(this.tshark, pcap, port, marker.getLocalPort());
			Map<String, Long> expected = new HashMap<>();
			int clientPort;
			try {
				capture.awaitMarkerConnection(marker);
				client.connection = client.provider.connect(client.qp, ConnectParameters.to(listener.localAddress())
					.withPrivateData(new PrivateData("rpcrdma".getBytes(StandardCharsets.US_ASCII)))
					.withListener(client.events)
					.withTimeout(DEADLINE)).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
				server.connection = accepted.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
				clientPort = client.connection.localAddress().getPort();
				MemoryRegion message = client.registerPattern(64, 1);
				MemoryRegion sink = client.register(64, 0, LOCAL_WRITE);
				client.qp.postSend(SendWorkRequest.send(1, ScatterGatherEntry.of(message)));
				assertThat(client.sends.next().status()).isEqualTo(CompletionStatus.SUCCESS);
				client.qp.postSend(SendWorkRequest.sendWithInvalidate(2, chunk.stag(), ScatterGatherEntry.of(message, 0, 8)));
				assertThat(client.sends.next().status()).isEqualTo(CompletionStatus.SUCCESS);
				client.qp.postSend(SendWorkRequest.rdmaWrite(3, target.remoteAddress(16), ScatterGatherEntry.of(message)));
				assertThat(client.sends.next().status()).isEqualTo(CompletionStatus.SUCCESS);
				client.qp.postSend(SendWorkRequest.rdmaRead(4, target.remoteAddress(128), ScatterGatherEntry.of(sink)));
				assertThat(client.sends.next().status()).isEqualTo(CompletionStatus.SUCCESS);
				client.qp.postSend(SendWorkRequest.rdmaRead(5, new RemoteAddress(target.address(), target.stag() ^ 0x5a5a0000),
						ScatterGatherEntry.of(sink)));
				assertThat(client.sends.next().status()).isEqualTo(CompletionStatus.REM_ACCESS_ERR);
				server.events.await(ConnectionEventType.DISCONNECTED);
				client.events.await(ConnectionEventType.DISCONNECTED);
				assertThat(server.receives.next(2)).allMatch((c) -> c.status() == CompletionStatus.SUCCESS);
				expected.put("chunk", (long) chunk.stag());
				expected.put("target", (long) target.stag());
				expected.put("targetAddress", target.address());
				expected.put("sink", (long) sink.stag());
				expected.put("sinkAddress", sink.address());
				capture.awaitMarkerConnection(marker);
			}
			finally {
				capture.stop();
				listener.close();
			}
			List<Map<String, String>> fpdus = dissect(pcap, port);
			fpdus.forEach(System.out::println);
			assertMpaExchange(fpdus, clientPort, crc);
			List<Map<String, String>> fromClient = fpdus.stream()
				.filter((f) -> f.get("tcp.srcport").equals(Integer.toString(clientPort)) && f.containsKey("iwarp_rdma.opcode"))
				.toList();
			List<Map<String, String>> fromServer = fpdus.stream()
				.filter((f) -> !f.get("tcp.srcport").equals(Integer.toString(clientPort)) && f.containsKey("iwarp_rdma.opcode"))
				.toList();
			// The client's messages, in order: no Read follows a Send or Write, which completes
			// once the socket took it (as on Linux's siw); Read Requests number queue 1 from MSN 1.
			assertFpdu(fromClient, 0, Map.of("iwarp_rdma.opcode", "0x03", "iwarp_ddp.qn", "0", "iwarp_ddp.msn", "1",
					"iwarp_ddp.mo", "0", "iwarp_ddp.last_flag", "1", "iwarp_ddp.tagged_flag", "0"));
			assertFpdu(fromClient, 1, Map.of("iwarp_rdma.opcode", "0x04", "iwarp_ddp.qn", "0", "iwarp_ddp.msn", "2",
					"iwarp_ddp.mo", "0", "iwarp_rdma.inval_stag", Long.toString(expected.get("chunk") & 0xffffffffL)));
			assertFpdu(fromClient, 2, Map.of("iwarp_rdma.opcode", "0x00", "iwarp_ddp.tagged_flag", "1",
					"iwarp_ddp.last_flag", "1", "iwarp_ddp.stag", hex32(expected.get("target")),
					"iwarp_ddp.tagged_offset", hex64(expected.get("targetAddress") + 16)));
			assertFpdu(fromClient, 3, readRequest(1, expected.get("sink"), expected.get("sinkAddress"), 64,
					expected.get("target"), expected.get("targetAddress") + 128));
			assertFpdu(fromClient, 4, Map.of("iwarp_rdma.opcode", "0x01", "iwarp_ddp.qn", "1", "iwarp_ddp.msn", "2",
					"iwarp_rdma.srcstag", hex32(expected.get("target") ^ 0x5a5a0000)));
			// The server's: the Read Response of 64 bytes into the sink, then the Terminate for
			// the bad STag: RDMAP layer, remote protection error, invalid STag (RFC 5040 §7.2),
			// on queue 2 with MSN 1, quoting the headers.
			assertThat(fromServer).hasSize(2);
			assertFpdu(fromServer, 0, Map.of("iwarp_rdma.opcode", "0x02", "iwarp_ddp.stag", hex32(expected.get("sink")),
					"iwarp_ddp.tagged_offset", hex64(expected.get("sinkAddress")), "iwarp_mpa.ulpdulength", "78"));
			assertFpdu(fromServer, 1, Map.of("iwarp_rdma.opcode", "0x07", "iwarp_ddp.qn", "2", "iwarp_ddp.msn", "1",
					"iwarp_rdma.term_layer", "0x00", "iwarp_rdma.term_etype_rdma", "0x01",
					"iwarp_rdma.term_errcode_rdma", "0x00", "iwarp_rdma.hdrct_d", "1", "iwarp_rdma.hdrct_r", "1"));
			assertCrcVerdicts(pcap, port, crc, fpdus.size() - 2);
		}
	}

	private static Map<String, String> readRequest(int msn, long sinkStag, long sinkTo, int size, long sourceStag,
			long sourceTo) {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("iwarp_rdma.opcode", "0x01");
		fields.put("iwarp_ddp.qn", "1");
		fields.put("iwarp_ddp.msn", Integer.toString(msn));
		fields.put("iwarp_ddp.mo", "0");
		fields.put("iwarp_rdma.sinkstag", hex32(sinkStag));
		fields.put("iwarp_rdma.sinkto", hex64(sinkTo));
		fields.put("iwarp_rdma.rdmardsz", Integer.toString(size));
		fields.put("iwarp_rdma.srcstag", hex32(sourceStag));
		fields.put("iwarp_rdma.srcto", hex64(sourceTo));
		return fields;
	}

	private static void assertMpaExchange(List<Map<String, String>> fpdus, int clientPort, boolean crc) {
		Map<String, String> request = fpdus.get(0);
		Map<String, String> reply = fpdus.get(1);
		assertThat(request).containsKey("iwarp_mpa.key.req");
		assertThat(request.get("tcp.srcport")).isEqualTo(Integer.toString(clientPort));
		assertThat(normalize(request.get("iwarp_mpa.crc_flag"))).isEqualTo(crc ? "1" : "0");
		assertThat(request.get("iwarp_mpa.rev")).isEqualTo("2");
		// RFC 6581: IRD and ORD (32 each) precede the SPI's private data.
		assertThat(request.get("iwarp_mpa.privatedata")).isEqualTo("00200020" + hex("rpcrdma"));
		assertThat(reply).containsKey("iwarp_mpa.key.rep");
		assertThat(normalize(reply.get("iwarp_mpa.crc_flag"))).isEqualTo(crc ? "1" : "0");
		assertThat(normalize(reply.get("iwarp_mpa.rej_flag"))).isEqualTo("0");
		assertThat(reply.get("iwarp_mpa.privatedata")).isEqualTo("00200020" + hex("ok"));
	}

	private static void assertFpdu(List<Map<String, String>> fpdus, int index, Map<String, String> fields) {
		assertThat(fpdus).as("decoded FPDUs").hasSizeGreaterThan(index);
		Map<String, String> fpdu = fpdus.get(index);
		for (Map.Entry<String, String> field : fields.entrySet()) {
			assertThat(normalize(fpdu.get(field.getKey()))).as("FPDU %d field %s in %s", index, field.getKey(), fpdu)
				.isEqualTo(normalize(field.getValue()));
		}
	}

	/**
	 * Runs tshark over the capture and splits each TCP segment into its FPDUs: a field that
	 * every FPDU has is aggregated once per FPDU, the others once per FPDU of their kind.
	 */
	private List<Map<String, String>> dissect(Path pcap, int port) throws Exception {
		List<String> command = new ArrayList<>(List.of(this.tshark.toString(), "-r", pcap.toString(), "-n", "-o",
				"tcp.try_heuristic_first:TRUE", "-Y", "tcp.port == " + port + " && iwarp_mpa", "-T", "fields", "-E",
				"header=n", "-E", "separator=/t", "-E", "occurrence=a", "-E", "aggregator=;"));
		for (String field : FIELDS) {
			command.add("-e");
			command.add(field);
		}
		List<Map<String, String>> fpdus = new ArrayList<>();
		for (String line : TsharkCapture.run(command)) {
			String[] values = line.split("\t", -1);
			assertThat(values).as("tshark output line %s", line).hasSize(FIELDS.size());
			Map<String, String[]> columns = new HashMap<>();
			for (int i = 0; i < values.length; i++) {
				columns.put(FIELDS.get(i), values[i].isEmpty() ? new String[0] : values[i].split(";", -1));
			}
			String frame = values[0];
			String source = values[1];
			if (columns.get("iwarp_mpa.key.req").length > 0 || columns.get("iwarp_mpa.key.rep").length > 0) {
				Map<String, String> mpa = new LinkedHashMap<>();
				mpa.put("frame.number", frame);
				mpa.put("tcp.srcport", source);
				for (String field : List.of("iwarp_mpa.key.req", "iwarp_mpa.key.rep", "iwarp_mpa.crc_flag",
						"iwarp_mpa.rej_flag", "iwarp_mpa.rev", "iwarp_mpa.privatedata")) {
					if (columns.get(field).length > 0) {
						mpa.put(field, columns.get(field)[0]);
					}
				}
				fpdus.add(mpa);
				continue;
			}
			Map<String, Integer> used = new HashMap<>();
			String[] opcodes = columns.get("iwarp_rdma.opcode");
			String[] tagged = columns.get("iwarp_ddp.tagged_flag");
			for (int i = 0; i < opcodes.length; i++) {
				Map<String, String> fpdu = new LinkedHashMap<>();
				fpdu.put("frame.number", frame);
				fpdu.put("tcp.srcport", source);
				String opcode = normalize(opcodes[i]);
				fpdu.put("iwarp_rdma.opcode", opcodes[i]);
				take(columns, used, fpdu, "iwarp_mpa.ulpdulength", "iwarp_ddp.tagged_flag", "iwarp_ddp.last_flag");
				if (normalize(tagged[i]).equals("1")) {
					take(columns, used, fpdu, "iwarp_ddp.stag", "iwarp_ddp.tagged_offset");
				}
				else {
					take(columns, used, fpdu, "iwarp_ddp.qn", "iwarp_ddp.msn", "iwarp_ddp.mo");
				}
				if (opcode.equals("0x4") || opcode.equals("0x6")) {
					take(columns, used, fpdu, "iwarp_rdma.inval_stag");
				}
				if (opcode.equals("0x1")) {
					take(columns, used, fpdu, "iwarp_rdma.sinkstag", "iwarp_rdma.sinkto", "iwarp_rdma.rdmardsz",
							"iwarp_rdma.srcstag", "iwarp_rdma.srcto");
				}
				if (opcode.equals("0x7")) {
					take(columns, used, fpdu, "iwarp_rdma.term_layer", "iwarp_rdma.term_etype_rdma",
							"iwarp_rdma.term_errcode_rdma", "iwarp_rdma.hdrct_d", "iwarp_rdma.hdrct_r");
				}
				fpdus.add(fpdu);
			}
		}
		return fpdus;
	}

	private static void take(Map<String, String[]> columns, Map<String, Integer> used, Map<String, String> fpdu,
			String... fields) {
		for (String field : fields) {
			int next = used.merge(field, 1, Integer::sum) - 1;
			String[] values = columns.get(field);
			if (next < values.length) {
				fpdu.put(field, values[next]);
			}
		}
	}

	/** Wireshark shows whether a CRC is good only in the field's text. */
	private void assertCrcVerdicts(Path pcap, int port, boolean crc, int fpduCount) throws Exception {
		List<String> text = TsharkCapture.run(List.of(this.tshark.toString(), "-r", pcap.toString(), "-n", "-o",
				"tcp.try_heuristic_first:TRUE", "-Y", "tcp.port == " + port + " && iwarp_mpa", "-V", "-O", "iwarp_mpa"));
		long good = text.stream().filter((line) -> line.contains("(Good CRC32)")).count();
		long bad = text.stream().filter((line) -> line.contains("Bad CRC32")).count();
		assertThat(bad).as("FPDUs whose CRC Wireshark calls bad").isZero();
		assertThat(good).as("FPDUs whose CRC Wireshark calls good").isEqualTo(crc ? fpduCount : 0);
	}

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
			return "0x" + v.substring(2).replaceFirst("^0+(?=.)", "");
		}
		return v;
	}

	private static String hex32(long value) {
		return String.format("0x%08x", value & 0xffffffffL);
	}

	private static String hex64(long value) {
		return String.format("0x%016x", value);
	}

	private static String hex(String ascii) {
		return java.util.HexFormat.of().formatHex(ascii.getBytes(StandardCharsets.US_ASCII));
	}

}
