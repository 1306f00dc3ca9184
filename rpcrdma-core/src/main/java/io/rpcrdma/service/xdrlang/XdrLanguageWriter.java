package io.rpcrdma.service.xdrlang;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.rpcrdma.service.ParameterDescriptor;
import io.rpcrdma.service.ProcedureDescriptor;
import io.rpcrdma.service.ProcedureResults;
import io.rpcrdma.service.ProgramNumbers;
import io.rpcrdma.service.RemoteFault;
import io.rpcrdma.service.ServiceDescriptor;
import io.rpcrdma.service.codec.XdrCodec;
import io.rpcrdma.service.codec.XdrShape;

/**
 * Writes bound services as an XDR language file (RFC 4506 §6 with the RPC language of RFC
 * 5531 §12), which {@code rpcgen} compiles, so peers in C or any language with an XDR
 * compiler can call them.
 * <p>
 * Choices, so the file is valid for rpcgen in its default ("classic") mode:
 * <ul>
 * <li>a procedure takes one argument: several parameters become a struct named
 * {@code <method>_<version>_args} whose members are the parameters in order. Its encoding
 * is the parameters' encodings one after another, exactly what this library sends, so no
 * {@code -N} (newstyle) is needed;</li>
 * <li>a procedure returns the union {@code <method>_<version>_res}: its result on status 0,
 * an {@code rpcrdma_fault} (the exception it threw) on status 1, as
 * {@link io.rpcrdma.service.ProcedureResults} encodes them;</li>
 * <li>procedure arguments and results must be type names, so strings, opaque data, arrays
 * and optionals there get typedefs ({@code rpcrdma_string}, {@code rpcrdma_opaque},
 * {@code <T>_list}, {@code <T>_opt}, e.g. {@code string_list}); a map becomes an array of a {@code <K>_<V>_entry}
 * struct of {@code key} and {@code value};</li>
 * <li>struct references are written {@code struct Name}, which C accepts before the struct
 * is complete, so recursive types ({@code struct Node *next;}) compile; structs used by
 * value are defined before their users;</li>
 * <li>names are made valid, non-reserved identifiers (XDR, rpcgen and C keywords get a
 * trailing underscore) and unique; enum constants are prefixed with their enum's name in
 * upper case ({@code COLOR_RED}) because C puts them in one namespace; the program is
 * {@code <NAME>_PROG}, its versions {@code <NAME>_V<n>}, procedures the method names in
 * upper snake case ({@code getUser} → {@code GET_USER}).</li>
 * </ul>
 */
public final class XdrLanguageWriter {

	private static final Set<String> RESERVED = Set.of(
			// RFC 4506 §6.4 and RFC 5531 §12.2 keywords
			"bool", "case", "const", "default", "double", "quadruple", "enum", "float", "hyper", "int", "opaque", "string",
			"struct", "switch", "typedef", "union", "unsigned", "void", "program", "version",
			// C keywords and rpcgen's names
			"auto", "break", "char", "continue", "do", "else", "extern", "for", "goto", "if", "inline", "long", "register",
			"restrict", "return", "short", "signed", "sizeof", "static", "volatile", "while", "bool_t", "u_int", "quad_t",
			"u_quad_t", "caddr_t", "XDR", "CLIENT", "TRUE", "FALSE", "NULL");

	private final StringBuilder definitions = new StringBuilder();

	/** Every global name used: types, enum constants, program, version and procedure names. */
	private final Set<String> globalNames = new HashSet<>();

	private final Map<Object, String> typeNames = new HashMap<>();

	private final Set<Object> defined = new HashSet<>();

	private final Set<Object> defining = new HashSet<>();

	private final Deque<XdrCodec<?>> pendingStructs = new ArrayDeque<>();

	private XdrLanguageWriter() {
	}

	/**
	 * Writes one or more bound interfaces; interfaces with the same program number become
	 * the versions of one program block.
	 * @param services the bound interfaces
	 * @return the XDR language text
	 * @throws IllegalArgumentException if a codec does not describe its XDR shape
	 */
	public static String write(List<ServiceDescriptor> services) {
		if (services.isEmpty()) {
			throw new IllegalArgumentException("no services to write");
		}
		return new XdrLanguageWriter().render(services);
	}

	/**
	 * @param services the bound interfaces
	 * @return the XDR language text
	 */
	public static String write(ServiceDescriptor... services) {
		return write(List.of(services));
	}

	private String render(List<ServiceDescriptor> services) {
		Map<Integer, List<ServiceDescriptor>> byProgram = new TreeMap<>(Integer::compareUnsigned);
		for (ServiceDescriptor service : services) {
			byProgram.computeIfAbsent(service.program(), (program) -> new ArrayList<>()).add(service);
		}
		StringBuilder programs = new StringBuilder();
		for (List<ServiceDescriptor> versions : byProgram.values()) {
			versions.sort(Comparator.comparing(ServiceDescriptor::version, Integer::compareUnsigned));
			programs.append(program(versions));
		}
		drainPending();
		StringBuilder text = new StringBuilder();
		text.append("/*\n * XDR language description (RFC 4506 §6, RFC 5531 §12) generated by rpcrdma for\n");
		for (ServiceDescriptor service : services) {
			text.append(" *   ").append(service.serviceInterface().getName()).append(": program ")
				.append(ProgramNumbers.hex(service.program())).append(" version ").append(Integer.toUnsignedString(service.version()))
				.append('\n');
		}
		text.append(" * Procedures take one argument (rpcgen's default mode); several parameters are\n")
			.append(" * gathered in a <method>_<version>_args struct, encoded member after member.\n */\n\n");
		text.append(this.definitions);
		text.append(programs);
		return text.toString();
	}

	private String program(List<ServiceDescriptor> versions) {
		ServiceDescriptor first = versions.get(0);
		String base = upperSnake(first.name());
		StringBuilder text = new StringBuilder();
		text.append("program ").append(global(base + "_PROG")).append(" {\n");
		// A procedure keeps its name in later versions when it keeps its number (rpcgen then
		// defines the same constant twice, identically); otherwise the name gets a suffix.
		Map<String, String> procedureNames = new HashMap<>();
		for (ServiceDescriptor service : versions) {
			String version = Integer.toUnsignedString(service.version());
			text.append("\tversion ").append(global(base + "_V" + version)).append(" {\n");
			for (ProcedureDescriptor procedure : service.procedures()) {
				String result = resultsUnion(procedure, version);
				String argument;
				List<ParameterDescriptor> parameters = procedure.parameters();
				if (parameters.isEmpty()) {
					argument = "void";
				}
				else if (parameters.size() == 1) {
					argument = procedureType(parameters.get(0).codec());
				}
				else {
					argument = argumentsStruct(procedure, version);
				}
				String number = Integer.toUnsignedString(procedure.number());
				String procedureName = upperSnake(procedure.name());
				String known = procedureNames.get(procedureName + "=" + number);
				if (known == null) {
					known = global(procedureNames.containsKey(procedureName) ? procedureName + "_V" + version : procedureName);
					procedureNames.put(procedureName, known);
					procedureNames.put(procedureName + "=" + number, known);
				}
				text.append("\t\t").append(result).append(' ').append(known).append('(').append(argument)
					.append(") = ").append(Integer.toUnsignedString(procedure.number())).append(";\n");
			}
			text.append("\t} = ").append(version).append(";\n");
		}
		text.append("} = ").append(ProgramNumbers.hex(first.program())).append(";\n");
		return text.toString();
	}

	/**
	 * The union every procedure returns (see {@link io.rpcrdma.service.ProcedureResults}): the
	 * method's result, or the fault of the exception it threw.
	 */
	private String resultsUnion(ProcedureDescriptor procedure, String version) {
		String fault = faultStruct();
		String name = global(identifier(procedure.name() + "_" + version + "_res"));
		String result = (shapeOf(procedure.resultCodec()) instanceof XdrShape.Void) ? "void;"
				: declaration(procedure.resultCodec(), "result");
		this.definitions.append("union ").append(name).append(" switch (int status) {\ncase ")
			.append(ProcedureResults.RESULT).append(":\n\t").append(result).append("\ncase ")
			.append(ProcedureResults.FAULT).append(":\n\t").append(fault).append(" fault;\n};\n\n");
		return name;
	}

	/** Defines {@code rpcrdma_fault} ({@link io.rpcrdma.service.RemoteFault}) once. */
	private String faultStruct() {
		String name = "rpcrdma_fault";
		if (this.defined.add(RemoteFault.class)) {
			this.globalNames.add(name);
			this.definitions.append("/* An exception a method threw: stable code, class name, message. */\n")
				.append("struct ").append(name).append(" {\n\tint code;\n\tstring type<")
				.append(RemoteFault.MAX_TYPE_BYTES).append(">;\n\tstring message<").append(RemoteFault.MAX_MESSAGE_BYTES)
				.append(">;\n};\n\n");
		}
		return name;
	}

	private String argumentsStruct(ProcedureDescriptor procedure, String version) {
		String name = global(identifier(procedure.name() + "_" + version + "_args"));
		StringBuilder body = new StringBuilder();
		Set<String> members = new HashSet<>();
		for (ParameterDescriptor parameter : procedure.parameters()) {
			body.append('\t').append(declaration(parameter.codec(), unique(members, identifier(parameter.name())))).append('\n');
		}
		this.definitions.append("struct ").append(name).append(" {\n").append(body).append("};\n\n");
		return name;
	}

	/** A type name usable as a procedure's argument or result. */
	private String procedureType(XdrCodec<?> codec) {
		XdrShape shape = shapeOf(codec);
		if (shape instanceof XdrShape.Void) {
			return "void";
		}
		if (shape instanceof XdrShape.Scalar scalar) {
			return scalar.xdrName();
		}
		if (shape instanceof XdrShape.StringOf) {
			return "string";
		}
		if (shape instanceof XdrShape.Struct) {
			return completeStruct(codec);
		}
		if (shape instanceof XdrShape.Enumeration enumeration) {
			return enumeration(enumeration);
		}
		return typedef(codec);
	}

	/** A type specifier for an element of an array or optional (used through a pointer). */
	private String elementType(XdrCodec<?> codec) {
		XdrShape shape = shapeOf(codec);
		if (shape instanceof XdrShape.Scalar scalar) {
			return scalar.xdrName();
		}
		if (shape instanceof XdrShape.Struct) {
			return "struct " + declaredStruct(codec);
		}
		if (shape instanceof XdrShape.Enumeration enumeration) {
			return enumeration(enumeration);
		}
		if (shape instanceof XdrShape.Void) {
			throw new IllegalArgumentException("void cannot be an element of an array or optional");
		}
		return typedef(codec);
	}

	/** A member declaration {@code type name...;}. */
	private String declaration(XdrCodec<?> codec, String name) {
		XdrShape shape = shapeOf(codec);
		if (shape instanceof XdrShape.Scalar scalar) {
			return scalar.xdrName() + " " + name + ";";
		}
		if (shape instanceof XdrShape.StringOf string) {
			return "string " + name + bound(string.maxBytes()) + ";";
		}
		if (shape instanceof XdrShape.Opaque opaque) {
			return "opaque " + name + bound(opaque.maxBytes()) + ";";
		}
		if (shape instanceof XdrShape.ArrayOf array) {
			return elementType(array.element()) + " " + name + bound(array.maxCount()) + ";";
		}
		if (shape instanceof XdrShape.OptionalOf optional) {
			return elementType(optional.element()) + " *" + name + ";";
		}
		if (shape instanceof XdrShape.MapOf map) {
			return "struct " + entryStruct(map) + " " + name + bound(map.maxCount()) + ";";
		}
		if (shape instanceof XdrShape.Struct) {
			return "struct " + completeStruct(codec) + " " + name + ";";
		}
		if (shape instanceof XdrShape.Enumeration enumeration) {
			return enumeration(enumeration) + " " + name + ";";
		}
		throw new IllegalArgumentException("member " + name + " has no XDR value (void)");
	}

	private String typedef(XdrCodec<?> codec) {
		XdrShape shape = shapeOf(codec);
		String key = key(codec);
		String existing = this.typeNames.get(key);
		if (existing != null) {
			return existing;
		}
		String base = (shape instanceof XdrShape.StringOf) ? "rpcrdma_string"
				: (shape instanceof XdrShape.Opaque) ? "rpcrdma_opaque" : baseName(codec);
		String name = global(identifier(base));
		this.typeNames.put(key, name);
		String declaration = declaration(codec, name);
		this.definitions.append("typedef ").append(declaration).append("\n\n");
		return name;
	}

	private String entryStruct(XdrShape.MapOf map) {
		String key = "entry:" + key(map.key()) + "," + key(map.value());
		String existing = this.typeNames.get(key);
		if (existing != null) {
			return existing;
		}
		String name = global(identifier(baseName(map.key()) + "_" + baseName(map.value()) + "_entry"));
		this.typeNames.put(key, name);
		String keyDeclaration = declaration(map.key(), "key");
		String valueDeclaration = declaration(map.value(), "value");
		this.definitions.append("struct ").append(name).append(" {\n\t").append(keyDeclaration).append("\n\t").append(valueDeclaration)
			.append("\n};\n\n");
		return name;
	}

	private String enumeration(XdrShape.Enumeration enumeration) {
		String existing = this.typeNames.get(enumeration.javaType());
		if (existing != null) {
			return existing;
		}
		String name = global(identifier(enumeration.name()));
		this.typeNames.put(enumeration.javaType(), name);
		StringBuilder text = new StringBuilder("enum ").append(name).append(" {\n");
		List<XdrShape.Constant> constants = enumeration.constants();
		for (int i = 0; i < constants.size(); i++) {
			XdrShape.Constant constant = constants.get(i);
			text.append('\t').append(global(upperSnake(name) + "_" + upperSnake(constant.name()))).append(" = ")
				.append(constant.value()).append((i + 1 < constants.size()) ? ",\n" : "\n");
		}
		this.definitions.append(text).append("};\n\n");
		return name;
	}

	/** Names a struct and makes sure it is defined later; enough for use through a pointer. */
	private String declaredStruct(XdrCodec<?> codec) {
		XdrShape.Struct struct = (XdrShape.Struct) shapeOf(codec);
		String name = structName(struct);
		if (!this.defined.contains(struct.javaType()) && !this.defining.contains(struct.javaType())) {
			this.pendingStructs.add(codec);
		}
		return name;
	}

	/** Names a struct and defines it now if it is not yet; needed for use by value. */
	private String completeStruct(XdrCodec<?> codec) {
		XdrShape.Struct struct = (XdrShape.Struct) shapeOf(codec);
		String name = structName(struct);
		if (this.defined.contains(struct.javaType())) {
			return name;
		}
		if (!this.defining.add(struct.javaType())) {
			throw new IllegalArgumentException(struct.javaType().getTypeName() + " contains itself by value");
		}
		StringBuilder body = new StringBuilder();
		Set<String> members = new HashSet<>();
		for (XdrShape.Member member : struct.members()) {
			body.append('\t').append(declaration(member.codec(), unique(members, identifier(member.name())))).append('\n');
		}
		this.defining.remove(struct.javaType());
		this.defined.add(struct.javaType());
		this.definitions.append("struct ").append(name).append(" {\n").append(body).append("};\n\n");
		return name;
	}

	private void drainPending() {
		while (!this.pendingStructs.isEmpty()) {
			completeStruct(this.pendingStructs.poll());
		}
	}

	private String structName(XdrShape.Struct struct) {
		String existing = this.typeNames.get(struct.javaType());
		if (existing != null) {
			return existing;
		}
		String name = global(identifier(struct.name()));
		this.typeNames.put(struct.javaType(), name);
		return name;
	}

	private String key(XdrCodec<?> codec) {
		XdrShape shape = shapeOf(codec);
		if (shape instanceof XdrShape.Scalar scalar) {
			return scalar.xdrName();
		}
		if (shape instanceof XdrShape.StringOf string) {
			return "string" + string.maxBytes();
		}
		if (shape instanceof XdrShape.Opaque opaque) {
			return "opaque" + opaque.maxBytes();
		}
		if (shape instanceof XdrShape.ArrayOf array) {
			return "array" + array.maxCount() + "(" + key(array.element()) + ")";
		}
		if (shape instanceof XdrShape.OptionalOf optional) {
			return "optional(" + key(optional.element()) + ")";
		}
		if (shape instanceof XdrShape.MapOf map) {
			return "map" + map.maxCount() + "(" + key(map.key()) + "," + key(map.value()) + ")";
		}
		if (shape instanceof XdrShape.Struct struct) {
			return "struct " + struct.javaType().getTypeName();
		}
		if (shape instanceof XdrShape.Enumeration enumeration) {
			return "enum " + enumeration.javaType().getTypeName();
		}
		return "void";
	}

	private String baseName(XdrCodec<?> codec) {
		XdrShape shape = shapeOf(codec);
		if (shape instanceof XdrShape.Scalar scalar) {
			return scalar.xdrName().replace(' ', '_');
		}
		if (shape instanceof XdrShape.StringOf) {
			return "string";
		}
		if (shape instanceof XdrShape.Opaque) {
			return "opaque";
		}
		if (shape instanceof XdrShape.ArrayOf array) {
			return baseName(array.element()) + "_list";
		}
		if (shape instanceof XdrShape.OptionalOf optional) {
			return baseName(optional.element()) + "_opt";
		}
		if (shape instanceof XdrShape.MapOf map) {
			return baseName(map.key()) + "_" + baseName(map.value()) + "_map";
		}
		if (shape instanceof XdrShape.Struct struct) {
			return structName(struct);
		}
		if (shape instanceof XdrShape.Enumeration enumeration) {
			return enumeration(enumeration);
		}
		return "void";
	}

	private static XdrShape shapeOf(XdrCodec<?> codec) {
		XdrShape shape = codec.shape();
		if (shape instanceof XdrShape.Undescribed undescribed) {
			throw new IllegalArgumentException("codec " + undescribed.codecClass() + " does not describe its XDR type, so it cannot be "
					+ "written in the XDR language; override XdrCodec.shape() in it");
		}
		return shape;
	}

	private static String bound(int max) {
		return (max == Integer.MAX_VALUE) ? "<>" : "<" + max + ">";
	}

	private String global(String name) {
		String candidate = name;
		for (int i = 2; !this.globalNames.add(candidate); i++) {
			candidate = name + "_" + i;
		}
		return candidate;
	}

	private static String unique(Set<String> names, String name) {
		String candidate = name;
		for (int i = 2; !names.add(candidate); i++) {
			candidate = name + "_" + i;
		}
		return candidate;
	}

	/**
	 * Makes a valid XDR identifier (RFC 4506 §6.2: a letter, then letters, digits and
	 * underscores) that is no keyword.
	 * @param name any text
	 * @return the identifier
	 */
	public static String identifier(String name) {
		StringBuilder text = new StringBuilder(name.length() + 1);
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			text.append(((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') ? c : '_');
		}
		if (text.length() == 0 || !Character.isLetter(text.charAt(0))) {
			text.insert(0, 'x');
		}
		String identifier = text.toString();
		return RESERVED.contains(identifier) ? identifier + "_" : identifier;
	}

	/**
	 * @param name a Java name such as {@code getUser} or {@code Calculator}
	 * @return {@code GET_USER}, {@code CALCULATOR}
	 */
	public static String upperSnake(String name) {
		String identifier = identifier(name);
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < identifier.length(); i++) {
			char c = identifier.charAt(i);
			if (Character.isUpperCase(c) && i > 0 && Character.isLowerCase(identifier.charAt(i - 1))) {
				text.append('_');
			}
			text.append(Character.toUpperCase(c));
		}
		return text.toString().toUpperCase(Locale.ROOT);
	}

}
