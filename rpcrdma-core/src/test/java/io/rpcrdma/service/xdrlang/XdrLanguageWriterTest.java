package io.rpcrdma.service.xdrlang;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.lang.reflect.Type;

import org.junit.jupiter.api.Test;

import io.rpcrdma.service.RpcProgram;
import io.rpcrdma.service.ServiceDescriptor;
import io.rpcrdma.service.ServiceIntrospector;
import io.rpcrdma.service.codec.CodecRegistry;
import io.rpcrdma.service.codec.XdrCodec;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The XDR language export says in RFC 4506 §6 terms what the codecs put on the wire.
 */
class XdrLanguageWriterTest {

	private final ServiceIntrospector introspector = new ServiceIntrospector(CodecRegistry.standard());

	@Test
	void writesTypesAndTheProgramWithItsNumbers() {
		String x = XdrLanguageWriter.write(this.introspector.describe(FileStore.V1.class), this.introspector.describe(FileStore.V2.class));
		assertThat(x).contains("enum FileType {\n\tFILE_TYPE_REGULAR = 0,\n\tFILE_TYPE_DIRECTORY = 1,\n\tFILE_TYPE_SYMLINK = 2\n};")
			.contains("enum Status {\n\tSTATUS_OK = 0,\n\tSTATUS_NOENT = 2,\n\tSTATUS_ACCES = 13\n};")
			.contains("struct Attributes {\n\tFileType type;\n\thyper size;\n\tint mode;\n\trpcrdma_string *owner;\n"
					+ "\tstruct string_string_entry xattrs<>;\n\tint *links;\n};")
			.contains("struct Entry {\n\tstring name<>;\n\thyper fileId;\n\tstruct Entry *next;\n};")
			.contains("struct Tree {\n\tstring name<>;\n\tstruct Tree children<>;\n\tFileType kinds<>;\n};")
			.contains("struct ReadResult {\n\tStatus status;\n\topaque data<>;\n\tbool eof;\n};")
			.contains("struct read_1_args {\n\tstring arg0<>;\n\tstruct Range arg1;\n};".replace("arg0", argName(0)).replace("arg1", argName(1)))
			.contains("program FILE_STORE_PROG {\n\tversion FILE_STORE_V1 {\n\t\tstat_1_res STAT(string) = 1;")
			.contains("\t\tread_1_res READ(read_1_args) = 2;")
			.contains("\t\tsync_1_res SYNC(void) = 5;")
			.contains("\t} = 1;\n\tversion FILE_STORE_V2 {")
			.contains("\t\tlist_2_res LIST(string) = 4;")
			.contains("\t\tsearch_2_res SEARCH(search_2_args) = 7;")
			.contains("\t\tcount_2_res COUNT(int_opt) = 8;")
			.contains("\t\tsnapshot_2_res SNAPSHOT(void) = 9;")
			.contains("struct rpcrdma_fault {\n\tint code;\n\tstring type<1024>;\n\tstring message<4096>;\n};")
			.contains("union stat_1_res switch (int status) {\ncase 0:\n\tstruct Attributes result;\ncase 1:\n\trpcrdma_fault fault;\n};")
			.contains("union sync_1_res switch (int status) {\ncase 0:\n\tvoid;\ncase 1:\n\trpcrdma_fault fault;\n};")
			.contains("union snapshot_2_res switch (int status) {\ncase 0:\n\topaque result<>;\ncase 1:\n\trpcrdma_fault fault;\n};")
			.contains("union search_2_res switch (int status) {\ncase 0:\n\trpcrdma_string result<>;")
			.contains("struct string_int_opt_entry {\n\tstring key<>;\n\tint *value;\n};")
			.endsWith("\t} = 2;\n} = 0x20000300;\n");
	}

	@Test
	void byValueStructsAreDefinedBeforeTheirUsers() {
		String x = XdrLanguageWriter.write(this.introspector.describe(FileStore.V1.class));
		assertThat(x.indexOf("struct Range {")).isLessThan(x.indexOf("struct read_1_args {"));
		assertThat(x.indexOf("enum FileType {")).isLessThan(x.indexOf("struct Attributes {"));
	}

	@Test
	void identifiersAreValidAndNotKeywords() {
		assertThat(XdrLanguageWriter.identifier("int")).isEqualTo("int_");
		assertThat(XdrLanguageWriter.identifier("program")).isEqualTo("program_");
		assertThat(XdrLanguageWriter.identifier("Outer$Inner")).isEqualTo("Outer_Inner");
		assertThat(XdrLanguageWriter.identifier("_x")).isEqualTo("x_x");
		assertThat(XdrLanguageWriter.identifier("1st")).isEqualTo("x1st");
		assertThat(XdrLanguageWriter.identifier("größe")).isEqualTo("gr__e");
		assertThat(XdrLanguageWriter.upperSnake("getUserById")).isEqualTo("GET_USER_BY_ID");
	}

	record Opaqueish(String value) {
	}

	@RpcProgram(number = 0x20000301)
	interface UsesCustom {

		void put(Opaqueish value);

	}

	@Test
	void aCodecThatDoesNotDescribeItselfIsNamed() {
		XdrCodec<Opaqueish> undescribed = new XdrCodec<>() {
			@Override
			public void encode(Opaqueish value, XdrEncoder out) {
				out.writeString(value.value());
			}

			@Override
			public Opaqueish decode(XdrDecoder in) {
				return new Opaqueish(in.readString(10));
			}

			@Override
			public int encodedSize(Opaqueish value) {
				return 8;
			}
		};
		CodecRegistry registry = CodecRegistry.builder().provider((Type type, CodecRegistry r) -> (type == Opaqueish.class) ? undescribed : null).build();
		ServiceDescriptor service = new ServiceIntrospector(registry).describe(UsesCustom.class);
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> XdrLanguageWriter.write(service))
			.withMessageContaining("codec " + undescribed.getClass().getName() + " does not describe its XDR type")
			.withMessageContaining("override XdrCodec.shape()");
	}

	private static String argName(int index) {
		try {
			return FileStore.V1.class.getMethod("read", String.class, FileStore.Range.class).getParameters()[index].getName();
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
