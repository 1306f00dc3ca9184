package io.rpcrdma.service.xdrlang;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.rpcrdma.conformance.ConformanceTool;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;

/**
 * The exported XDR language file is accepted by rpcgen, the ONC RPC protocol compiler: the
 * header, XDR routines, client stubs and server skeleton all generate, the header carries
 * the program, version and procedure numbers, and (where gcc and the TI-RPC headers are
 * installed) the generated C compiles.
 */
@Tag("conformance")
class RpcgenConformanceTest {

	private static final ConformanceTool GCC = new ConformanceTool("gcc", "rpcrdma.gcc", "gcc");

	@TempDir
	Path directory;

	private Path rpcgen;

	@BeforeEach
	void writeTheFile() throws IOException {
		this.rpcgen = ConformanceTool.RPCGEN.require("XDR language export compiled by rpcgen");
		ServiceIntrospector introspector = new ServiceIntrospector(CodecRegistry.standard());
		String x = XdrLanguageWriter.write(introspector.describe(FileStore.V1.class), introspector.describe(FileStore.V2.class));
		Files.writeString(this.directory.resolve("filestore.x"), x, StandardCharsets.UTF_8);
	}

	@Test
	void rpcgenGeneratesHeaderXdrRoutinesAndStubs() throws Exception {
		run(this.rpcgen.toString(), "-h", "-o", "filestore.h", "filestore.x");
		run(this.rpcgen.toString(), "-c", "-o", "filestore_xdr.c", "filestore.x");
		run(this.rpcgen.toString(), "-l", "-o", "filestore_clnt.c", "filestore.x");
		run(this.rpcgen.toString(), "-m", "-o", "filestore_svc.c", "filestore.x");

		String header = Files.readString(this.directory.resolve("filestore.h"));
		assertThat(header).contains("#define FILE_STORE_PROG 0x20000300")
			.contains("#define FILE_STORE_V1 1")
			.contains("#define FILE_STORE_V2 2")
			.contains("#define STAT 1")
			.contains("#define READ 2")
			.contains("#define WRITE 3")
			.contains("#define LIST 4")
			.contains("#define SYNC 5")
			.contains("#define TREE 6")
			.contains("#define SEARCH 7")
			.contains("#define COUNT 8")
			.contains("#define SNAPSHOT 9")
			.contains("extern  read_1_res * read_1(read_1_args *, CLIENT *);")
			.contains("struct rpcrdma_fault {")
			.contains("struct Entry *next;");
		assertThat(Files.readString(this.directory.resolve("filestore_xdr.c"))).contains("xdr_Entry (XDR *xdrs, Entry *objp)")
			.contains("xdr_pointer (xdrs, (char **)&objp->next, sizeof (Entry), (xdrproc_t) xdr_Entry)");
	}

	@Test
	void generatedCCompiles() throws Exception {
		run(this.rpcgen.toString(), "-h", "-o", "filestore.h", "filestore.x");
		run(this.rpcgen.toString(), "-c", "-o", "filestore_xdr.c", "filestore.x");
		run(this.rpcgen.toString(), "-l", "-o", "filestore_clnt.c", "filestore.x");
		Path gcc = GCC.require("compiling rpcgen's C output for the XDR language export");
		if (!Files.exists(Path.of("/usr/include/tirpc/rpc/rpc.h"))) {
			String message = "TI-RPC headers not found (/usr/include/tirpc/rpc/rpc.h): compiling rpcgen's C output NOT run; "
					+ "install them with 'apt-get install -y libtirpc-dev'";
			System.err.println("!!! CONFORMANCE SKIPPED: " + message);
			Assumptions.abort(message);
		}
		run(gcc.toString(), "-c", "-Wall", "-I/usr/include/tirpc", "filestore_xdr.c", "filestore_clnt.c");
		assertThat(this.directory.resolve("filestore_xdr.o")).exists();
		assertThat(this.directory.resolve("filestore_clnt.o")).exists();
	}

	private void run(String... command) throws Exception {
		Process process = new ProcessBuilder(List.of(command)).directory(this.directory.toFile()).redirectErrorStream(true).start();
		byte[] output = process.getInputStream().readAllBytes();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command[0]).isTrue();
		assertThat(process.exitValue()).as("exit code of %s; output:%n%s%nfile:%n%s", String.join(" ", command),
				new String(output, StandardCharsets.UTF_8), numbered(this.directory.resolve("filestore.x"))).isZero();
	}

	private static String numbered(Path file) throws IOException {
		List<String> lines = new ArrayList<>(Files.readAllLines(file));
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < lines.size(); i++) {
			text.append(i + 1).append(": ").append(lines.get(i)).append('\n');
		}
		return text.toString();
	}

}
