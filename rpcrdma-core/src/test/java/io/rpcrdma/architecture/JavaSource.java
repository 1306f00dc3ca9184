package io.rpcrdma.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One Java source file as the layering rules see it: its package, its top-level class, and the
 * project types it names, by import or by a fully qualified name in code. Comments, string,
 * character and text-block literals are blanked first, so a {@code {@link io.rpcrdma...}} in
 * Javadoc or a service file name in a string is not a dependency.
 *
 * @param path the file
 * @param packageName its package
 * @param className the fully qualified name of its top-level class
 * @param code the source with comments and literals blanked
 * @param imported the project types (or packages, for on-demand imports) it imports
 * @param qualified the project types it names fully qualified in code
 */
record JavaSource(Path path, String packageName, String className, String code, Set<String> imported,
		Set<String> qualified) {

	private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

	private static final Pattern IMPORT = Pattern
		.compile("^\\s*import\\s+(?:static\\s+)?(io\\.rpcrdma\\.[\\w.]+?)(?:\\.\\*)?\\s*;", Pattern.MULTILINE);

	private static final Pattern IMPORT_OR_PACKAGE = Pattern.compile("^\\s*(?:import|package)\\s[^;]*;",
			Pattern.MULTILINE);

	/** A project type named in code: lower-case package segments, then the first capitalised one. */
	private static final Pattern QUALIFIED = Pattern
		.compile("(?<![\\w.])io\\.rpcrdma(?:\\.[a-z_][a-z0-9_]*)+\\.[A-Z]\\w*");

	static JavaSource read(Path path) {
		try {
			return parse(path, Files.readString(path));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static JavaSource parse(Path path, String text) {
		String code = blankCommentsAndLiterals(text);
		Matcher pkg = PACKAGE.matcher(code);
		String packageName = pkg.find() ? pkg.group(1) : "";
		String simpleName = path.getFileName().toString().replaceFirst("\\.java$", "");
		Set<String> imported = new LinkedHashSet<>();
		Matcher imports = IMPORT.matcher(code);
		while (imports.find()) {
			imported.add(typeOf(imports.group(1)));
		}
		Set<String> qualified = new LinkedHashSet<>();
		Matcher names = QUALIFIED.matcher(IMPORT_OR_PACKAGE.matcher(code).replaceAll(""));
		while (names.find()) {
			qualified.add(names.group());
		}
		return new JavaSource(path, packageName, packageName.isEmpty() ? simpleName : packageName + "." + simpleName,
				code, imported, qualified);
	}

	/** Every project type this file depends on by name. */
	Set<String> references() {
		Set<String> all = new LinkedHashSet<>(this.imported);
		all.addAll(this.qualified);
		return all;
	}

	/** Whether the code (not comments, not strings) uses a simple name as a word. */
	boolean mentions(String simpleName) {
		return Pattern.compile("\\b" + Pattern.quote(simpleName) + "\\b").matcher(this.code).find();
	}

	/** The package part of a type name: the segments before the first capitalised one. */
	static String packageOf(String typeName) {
		String[] segments = typeName.split("\\.");
		List<String> pkg = new ArrayList<>();
		for (String segment : segments) {
			if (!segment.isEmpty() && Character.isUpperCase(segment.charAt(0))) {
				break;
			}
			pkg.add(segment);
		}
		return String.join(".", pkg);
	}

	/** A static import names a member: keep only the type it belongs to. */
	private static String typeOf(String imported) {
		List<String> type = new ArrayList<>();
		for (String segment : imported.split("\\.")) {
			type.add(segment);
			if (Character.isUpperCase(segment.charAt(0))) {
				break;
			}
		}
		return String.join(".", type);
	}

	/**
	 * Replaces comments and literals with spaces, keeping line breaks, so that positions and
	 * lines stay where they were.
	 */
	static String blankCommentsAndLiterals(String text) {
		StringBuilder out = new StringBuilder(text.length());
		int i = 0;
		int n = text.length();
		while (i < n) {
			char c = text.charAt(i);
			if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
				while (i < n && text.charAt(i) != '\n') {
					out.append(' ');
					i++;
				}
			}
			else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
				int end = text.indexOf("*/", i + 2);
				end = (end < 0) ? n : end + 2;
				blank(text, i, end, out);
				i = end;
			}
			else if (c == '"' && text.startsWith("\"\"\"", i)) {
				int end = text.indexOf("\"\"\"", i + 3);
				while (end > 0 && text.charAt(end - 1) == '\\') {
					end = text.indexOf("\"\"\"", end + 1);
				}
				end = (end < 0) ? n : end + 3;
				blank(text, i, end, out);
				i = end;
			}
			else if (c == '"' || c == '\'') {
				int end = i + 1;
				while (end < n && text.charAt(end) != c && text.charAt(end) != '\n') {
					end += (text.charAt(end) == '\\') ? 2 : 1;
				}
				end = Math.min(n, end + 1);
				blank(text, i, end, out);
				i = end;
			}
			else {
				out.append(c);
				i++;
			}
		}
		return out.toString();
	}

	private static void blank(String text, int from, int to, StringBuilder out) {
		for (int k = from; k < to; k++) {
			out.append(text.charAt(k) == '\n' ? '\n' : ' ');
		}
	}

	/** Every main source of a source root. */
	static List<JavaSource> under(Path root) {
		if (!Files.isDirectory(root)) {
			return List.of();
		}
		try (Stream<Path> files = Files.walk(root)) {
			return files.filter((file) -> file.toString().endsWith(".java")).sorted().map(JavaSource::read).toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
