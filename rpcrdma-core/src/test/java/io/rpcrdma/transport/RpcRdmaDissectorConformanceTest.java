package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rpcrdma.conformance.ConformanceTool;
import io.rpcrdma.verbs.RdmaProvider;
import io.rpcrdma.verbs.RdmaProviders;
import io.rpcrdma.verbs.siw.wire.TsharkCapture;

/**
 * Third-party check of the transport headers as sent: a client and a server over the software
 * iWARP provider on 127.0.0.1 (MPA CRC off, RPC-over-RDMA version 1) exchange one call of each
 * conveyance while tshark captures, and Wireshark's RPC-over-RDMA dissector, which registers
 * as a heuristic on the iWARP DDP/RDMAP dissector ({@code iwarp_ddp_rdmap}), must decode every
 * call and reply: {@code rpcordma.xid} equal to the RPC XID, {@code rpcordma.version} 1,
 * {@code rpcordma.flow_control} the credits requested and granted, {@code rpcordma.msg_type}
 * RDMA_MSG (0) or RDMA_NOMSG (1), {@code rpcordma.reads_count} / {@code writes_count} /
 * {@code reply_count}, {@code rpcordma.position}, {@code rpcordma.segment_count} and each
 * segment's {@code rpcordma.rdma_handle} / {@code rdma_length} / {@code rdma_offset}. The
 * segments are checked against what happens on the wire: the server's RDMA Read Request for a
 * Read chunk names the advertised handle, offset and length ({@code iwarp_rdma.srcstag},
 * {@code srcto}, {@code rdmardsz}), its RDMA Write into a Write or Reply chunk the advertised
 * handle and offset ({@code iwarp_ddp.stag}, {@code tagged_offset}), and the reply echoes the
 * Write chunk's handle and offset with the length actually written.
 * <p>
 * The ONC RPC message inside must be decoded too ({@code rpc.xid}, {@code rpc.msgtyp},
 * {@code rpc.program}, {@code rpc.programversion}, {@code rpc.procedure} for calls,
 * {@code rpc.replystat} for replies) wherever Wireshark 4.0 can: in every inline call and
 * reply, and in the RDMA_NOMSG reply whose message Wireshark reassembles from the RDMA Write
 * into the Reply chunk ({@code rpcordma.fragment.count} 1). The workload's program is unknown
 * to Wireshark, so the capture is read with {@code rpc.dissect_unknown_programs} on; without
 * it Wireshark shows calls as "Continuation data". Limitations of Wireshark 4.0, asserted as
 * such so that a change shows: a call whose argument travels in a Read chunk and a long call
 * in a Position-Zero Read chunk show only their transport headers ({@code rpc.*} absent), as
 * Wireshark does not rebuild a call from the RDMA Read Responses over iWARP; the reply with a
 * Write chunk is decoded twice (once inline, once with the Write chunk's data), so RPC fields
 * are compared as sets.
 * <p>
 * Calls are made one after another, each awaited, so each frame carries at most one transport
 * header; marker connections, not sleeps, prove the capture live and complete. Skipped, loudly,
 * without tshark.
 */
@Tag("conformance")
class RpcRdmaDissectorConformanceTest extends RpcRdmaTransportKit {

	private static final int INLINE = 0x1001;

	private static final int READ_CHUNK = 0x1002;

	private static final int WRITE_LIST = 0x1003;

	private static final int REPLY_CHUNK = 0x1004;

	private static final int POSITION_ZERO = 0x1005;

	private static final int RDMA_MSG = 0;

	private static final int RDMA_NOMSG = 1;

	/** What {@link RpcRdmaTransportKit#config()} requests and grants. */
	private static final int CREDITS = 8;

	private static final List<String> FIELDS = List.of("frame.number", "tcp.srcport", "rpcordma.xid",
			"rpcordma.version", "rpcordma.flow_control", "rpcordma.msg_type", "rpcordma.reads_count",
			"rpcordma.writes_count", "rpcordma.reply_count", "rpcordma.position", "rpcordma.segment_count",
			"rpcordma.rdma_handle", "rpcordma.rdma_length", "rpcordma.rdma_offset", "rpc.xid", "rpc.msgtyp",
			"rpc.program", "rpc.programversion", "rpc.procedure", "rpc.replystat", "rpcordma.fragment.count");

	@TempDir
	Path directory;

	private Path tshark;

	@Override
	protected RdmaProvider openProvider() {
		return RdmaProviders.open("siw");
	}

	@Override
	protected InetSocketAddress listenAddress() {
		return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
	}

	@BeforeEach
	void locateTshark() {
		this.tshark = ConformanceTool.TSHARK.require("RPC-over-RDMA conformance (transport headers decoded by Wireshark)");
	}

	@Test
	void wiresharkDecodesEveryConveyance() throws Exception {
		TransportConfig config = v1Only();
		RpcRdmaServer server = server(config, (call, replier) -> {
			if (call.xid() == REPLY_CHUNK) {
				replier.reply(OutboundReply.inline(RpcWorkload.reply(call.xid(), RpcWorkload.pattern(20_000, 3), true).message()));
			}
			else {
				RpcWorkload.serve(call, replier);
			}
		});
		int port = server.localAddress().getPort();
		Path pcap = this.directory.resolve("rpcrdma.pcapng");
		try (ServerSocket marker = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
			TsharkCapture capture = TsharkCapture.start(this.tshark, pcap, port, marker.getLocalPort());
			try {
				capture.awaitMarkerConnection(marker);
				RpcRdmaClientConnection client = client(server, config);
				await(client.call(RpcWorkload.echo(INLINE, RpcWorkload.pattern(200, 1), false, 0, 0)));
				byte[] data = RpcWorkload.pattern(5_000, 5);
				await(client.call(new OutboundCall(RpcWorkload.call(READ_CHUNK, RpcWorkload.DIGEST, data),
						List.of(RpcWorkload.argumentItem(READ_CHUNK, RpcWorkload.DIGEST, data.length)), List.of(), 0)));
				await(client.call(RpcWorkload.generate(WRITE_LIST, 5_000, 8_192, 0)));
				await(client.call(RpcWorkload.generate(REPLY_CHUNK, 20_000, 0, 20_100)));
				await(client.call(OutboundCall.inline(RpcWorkload.call(POSITION_ZERO, RpcWorkload.DIGEST,
						RpcWorkload.pattern(10_000, 9)))));
				capture.awaitMarkerConnection(marker);
			}
			finally {
				capture.stop();
			}
		}
		List<Map<String, List<String>>> headers = dissect(pcap, port, "rpcordma", FIELDS);
		headers.forEach(System.out::println);
		String serverPort = Integer.toString(port);
		Map<Integer, Map<String, List<String>>> calls = new HashMap<>();
		Map<Integer, Map<String, List<String>>> replies = new HashMap<>();
		for (Map<String, List<String>> header : headers) {
			int xid = Integer.decode(header.get("rpcordma.xid").get(0));
			Map<Integer, Map<String, List<String>>> side = header.get("tcp.srcport").get(0).equals(serverPort) ? replies
					: calls;
			assertThat(side.put(xid, header)).as("a second transport header with XID %x", xid).isNull();
		}
		assertThat(calls.keySet()).containsExactlyInAnyOrder(INLINE, READ_CHUNK, WRITE_LIST, REPLY_CHUNK, POSITION_ZERO);
		assertThat(replies.keySet()).isEqualTo(calls.keySet());
		Set<String> readRequests = rdmaOperations(pcap, port, "iwarp_rdma.opcode == 1", "iwarp_rdma.srcstag",
				"iwarp_rdma.srcto", "iwarp_rdma.rdmardsz");
		Set<String> serverWrites = rdmaOperations(pcap, port,
				"iwarp_rdma.opcode == 0 && tcp.srcport == " + port, "iwarp_ddp.stag", "iwarp_ddp.tagged_offset");

		// An inline call and its inline reply: RDMA_MSG with empty chunk lists, the RPC inside.
		assertHeader(calls.get(INLINE), INLINE, RDMA_MSG, 0, 0, 0);
		assertRpcCall(calls.get(INLINE), INLINE, RpcWorkload.ECHO);
		assertHeader(replies.get(INLINE), INLINE, RDMA_MSG, 0, 0, 0);
		assertRpcReply(replies.get(INLINE), INLINE);

		// A Read chunk at the argument's XDR position; the server pulls exactly that segment.
		Map<String, List<String>> read = calls.get(READ_CHUNK);
		assertHeader(read, READ_CHUNK, RDMA_MSG, 1, 0, 0);
		assertThat(values(read, "rpcordma.position"))
			.containsExactly(Integer.toString(RpcWorkload.argumentItem(READ_CHUNK, RpcWorkload.DIGEST, 5_000).offset()));
		assertSegment(read, 5_000);
		assertThat(readRequests).contains(operation(read, "5000"));
		assertThat(values(read, "rpc.xid")).as("the RPC call around a Read chunk is not decoded").isEmpty();
		assertHeader(replies.get(READ_CHUNK), READ_CHUNK, RDMA_MSG, 0, 0, 0);
		assertRpcReply(replies.get(READ_CHUNK), READ_CHUNK);

		// A Write list of one chunk of one segment; the reply returns it with the length
		// written, and the server's RDMA Write targets the advertised handle and offset.
		Map<String, List<String>> write = calls.get(WRITE_LIST);
		assertHeader(write, WRITE_LIST, RDMA_MSG, 0, 1, 0);
		assertThat(values(write, "rpcordma.segment_count")).containsExactly("1");
		assertSegment(write, 8_192);
		assertRpcCall(write, WRITE_LIST, RpcWorkload.GENERATE);
		Map<String, List<String>> written = replies.get(WRITE_LIST);
		assertHeader(written, WRITE_LIST, RDMA_MSG, 0, 1, 0);
		assertSegment(written, 5_000);
		assertThat(values(written, "rpcordma.rdma_handle")).isEqualTo(values(write, "rpcordma.rdma_handle"));
		assertThat(values(written, "rpcordma.rdma_offset")).isEqualTo(values(write, "rpcordma.rdma_offset"));
		assertThat(serverWrites).contains(operation(write));
		assertRpcReply(written, WRITE_LIST);

		// A Reply chunk: the reply is RDMA_NOMSG, its RPC message RDMA-Written into the chunk,
		// from which Wireshark reassembles and decodes it.
		Map<String, List<String>> offered = calls.get(REPLY_CHUNK);
		assertHeader(offered, REPLY_CHUNK, RDMA_MSG, 0, 0, 1);
		assertSegment(offered, 20_100);
		assertRpcCall(offered, REPLY_CHUNK, RpcWorkload.GENERATE);
		Map<String, List<String>> longReply = replies.get(REPLY_CHUNK);
		assertHeader(longReply, REPLY_CHUNK, RDMA_NOMSG, 0, 0, 1);
		int replyLength = RpcWorkload.reply(REPLY_CHUNK, new byte[20_000], true).message().remaining();
		assertSegment(longReply, replyLength);
		assertThat(values(longReply, "rpcordma.rdma_handle")).isEqualTo(values(offered, "rpcordma.rdma_handle"));
		assertThat(values(longReply, "rpcordma.rdma_offset")).isEqualTo(values(offered, "rpcordma.rdma_offset"));
		assertThat(serverWrites).contains(operation(offered));
		assertThat(values(longReply, "rpcordma.fragment.count")).containsExactly("1");
		assertRpcReply(longReply, REPLY_CHUNK);

		// A long call: RDMA_NOMSG with the whole RPC message in a Position-Zero Read chunk.
		Map<String, List<String>> longCall = calls.get(POSITION_ZERO);
		assertHeader(longCall, POSITION_ZERO, RDMA_NOMSG, 1, 0, 0);
		assertThat(values(longCall, "rpcordma.position")).containsExactly("0");
		int callLength = RpcWorkload.call(POSITION_ZERO, RpcWorkload.DIGEST, new byte[10_000]).remaining();
		assertSegment(longCall, callLength);
		assertThat(readRequests).contains(operation(longCall, Integer.toString(callLength)));
		assertThat(values(longCall, "rpc.xid")).as("the RPC call in a Position-Zero Read chunk is not decoded")
			.isEmpty();
		assertHeader(replies.get(POSITION_ZERO), POSITION_ZERO, RDMA_MSG, 0, 0, 0);
		assertRpcReply(replies.get(POSITION_ZERO), POSITION_ZERO);
	}

	private static void assertHeader(Map<String, List<String>> header, int xid, int type, int reads, int writes,
			int replies) {
		assertThat(values(header, "rpcordma.xid")).as("rdma_xid in %s", header).containsExactly(hex32(xid));
		assertThat(values(header, "rpcordma.version")).as("rdma_vers in %s", header).containsExactly("1");
		assertThat(values(header, "rpcordma.flow_control")).as("rdma_credit in %s", header)
			.containsExactly(Integer.toString(CREDITS));
		assertThat(values(header, "rpcordma.msg_type")).as("rdma_type in %s", header)
			.containsExactly(Integer.toString(type));
		assertThat(values(header, "rpcordma.reads_count")).as("Read list in %s", header)
			.containsExactly(Integer.toString(reads));
		assertThat(values(header, "rpcordma.writes_count")).as("Write list in %s", header)
			.containsExactly(Integer.toString(writes));
		assertThat(values(header, "rpcordma.reply_count")).as("Reply chunk in %s", header)
			.containsExactly(Integer.toString(replies));
	}

	private static void assertSegment(Map<String, List<String>> header, int length) {
		assertThat(values(header, "rpcordma.rdma_handle")).as("handle in %s", header).hasSize(1);
		assertThat(Long.decode(values(header, "rpcordma.rdma_handle").get(0))).as("handle in %s", header).isNotZero();
		assertThat(values(header, "rpcordma.rdma_length")).as("length in %s", header)
			.containsExactly(Integer.toString(length));
		assertThat(values(header, "rpcordma.rdma_offset")).as("offset in %s", header).hasSize(1);
	}

	/** Wireshark repeats some fields of one RPC message; every occurrence must agree. */
	private static void assertRpcCall(Map<String, List<String>> header, int xid, int procedure) {
		assertThat(Set.copyOf(values(header, "rpc.xid"))).as("rpc.xid in %s", header).containsExactly(hex32(xid));
		assertThat(Set.copyOf(values(header, "rpc.msgtyp"))).as("rpc.msgtyp in %s", header).containsExactly("0");
		assertThat(Set.copyOf(values(header, "rpc.program"))).as("rpc.program in %s", header)
			.containsExactly(Integer.toString(RpcWorkload.PROGRAM));
		assertThat(Set.copyOf(values(header, "rpc.programversion"))).as("rpc.programversion in %s", header)
			.containsExactly("1");
		assertThat(Set.copyOf(values(header, "rpc.procedure"))).as("rpc.procedure in %s", header)
			.containsExactly(Integer.toString(procedure));
	}

	private static void assertRpcReply(Map<String, List<String>> header, int xid) {
		assertThat(Set.copyOf(values(header, "rpc.xid"))).as("rpc.xid in %s", header).containsExactly(hex32(xid));
		assertThat(Set.copyOf(values(header, "rpc.msgtyp"))).as("rpc.msgtyp in %s", header).containsExactly("1");
		assertThat(Set.copyOf(values(header, "rpc.replystat"))).as("rpc.replystat in %s", header)
			.containsExactly("0");
	}

	private static List<String> values(Map<String, List<String>> header, String field) {
		return header.getOrDefault(field, List.of());
	}

	private static String operation(Map<String, List<String>> header, String... more) {
		List<String> parts = new ArrayList<>(List.of(normalize(values(header, "rpcordma.rdma_handle").get(0)),
				normalize(values(header, "rpcordma.rdma_offset").get(0))));
		parts.addAll(List.of(more));
		return String.join("/", parts);
	}

	/** The given fields of the RDMAP operations that match, one "a/b/c" string each. */
	private Set<String> rdmaOperations(Path pcap, int port, String filter, String... fields) throws Exception {
		Set<String> operations = new HashSet<>();
		for (Map<String, List<String>> frame : dissect(pcap, port, filter, List.of(fields))) {
			int count = values(frame, fields[0]).size();
			for (int i = 0; i < count; i++) {
				List<String> parts = new ArrayList<>();
				for (String field : fields) {
					assertThat(values(frame, field)).as("%s in %s", field, frame).hasSize(count);
					parts.add(normalize(values(frame, field).get(i)));
				}
				operations.add(String.join("/", parts));
			}
		}
		return operations;
	}

	/** One map per frame that matches, from each field to all its occurrences. */
	private List<Map<String, List<String>>> dissect(Path pcap, int port, String filter, List<String> fields)
			throws Exception {
		List<String> command = new ArrayList<>(List.of(this.tshark.toString(), "-r", pcap.toString(), "-n", "-o",
				"tcp.try_heuristic_first:TRUE", "-o", "rpc.dissect_unknown_programs:TRUE", "-Y",
				"tcp.port == " + port + " && (" + filter + ")", "-T", "fields", "-E", "header=n", "-E",
				"separator=/t", "-E", "occurrence=a", "-E", "aggregator=;"));
		List<String> all = new ArrayList<>(List.of("frame.number", "tcp.srcport"));
		all.addAll(fields);
		for (String field : all) {
			command.add("-e");
			command.add(field);
		}
		List<Map<String, List<String>>> frames = new ArrayList<>();
		for (String line : TsharkCapture.run(command)) {
			String[] columns = line.split("\t", -1);
			assertThat(columns).as("tshark output line %s", line).hasSize(all.size());
			Map<String, List<String>> frame = new java.util.LinkedHashMap<>();
			for (int i = 0; i < columns.length; i++) {
				if (!columns[i].isEmpty()) {
					frame.put(all.get(i), List.of(columns[i].split(";", -1)));
				}
			}
			frames.add(frame);
		}
		return frames;
	}

	private static String normalize(String value) {
		String v = value.trim().toLowerCase(Locale.ROOT);
		return v.startsWith("0x") ? "0x" + v.substring(2).replaceFirst("^0+(?=.)", "") : v;
	}

	private static String hex32(int value) {
		return String.format("0x%08x", value);
	}

}
