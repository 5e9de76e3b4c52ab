package io.paramhub.ml;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/**
 * Writes a plugin jar as a user builds one, from Java sources compiled here against ParamHub's ml classes alone, so
 * that its classes are on no classpath of the tests: the compiled classes and a {@code META-INF/services} file per
 * service.
 */
public final class PluginJarWriter {

    private PluginJarWriter() {}

    /**
     * Compiles {@code sources} (fully qualified class name to source) and writes them to {@code jar}, with
     * {@code services} (service interface to the implementing classes) as its service files.
     */
    public static Path write(
            final Path jar, final Map<String, String> sources, final Map<Class<?>, List<String>> services)
            throws IOException {
        final Path classes = Files.createTempDirectory(jar.getParent(), "classes");
        compile(sources, classes);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (final Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(file)
                        .toString()
                        .replace(file.getFileSystem().getSeparator(), "/")));
                out.write(Files.readAllBytes(file));
                out.closeEntry();
            }
            for (final Map.Entry<Class<?>, List<String>> service : services.entrySet()) {
                out.putNextEntry(
                        new JarEntry("META-INF/services/" + service.getKey().getName()));
                write(out, String.join("\n", service.getValue()) + "\n");
                out.closeEntry();
            }
        }
        return jar;
    }

    private static void write(final OutputStream out, final String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
    }

    private static void compile(final Map<String, String> sources, final Path classes) {
        if (sources.isEmpty()) {
            return;
        }
        final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        final List<JavaFileObject> units = new ArrayList<>();
        sources.forEach((name, source) -> units.add(new Source(name, source)));
        final DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        final List<String> options =
                List.of("-classpath", mlClasses().toString(), "-d", classes.toString(), "--release", "17");
        if (!compiler.getTask(null, null, diagnostics, options, null, units).call()) {
            throw new IllegalStateException("plugin sources do not compile: " + diagnostics.getDiagnostics());
        }
    }

    /** The directory or jar that holds ParamHub's ml classes. */
    private static Path mlClasses() {
        try {
            return Path.of(Model.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A source file held in memory. */
    private static final class Source extends SimpleJavaFileObject {

        private final String code;

        Source(final String className, final String code) {
            super(URI.create("string:///" + className.replace('.', '/') + Kind.SOURCE.extension), Kind.SOURCE);
            this.code = code;
        }

        @Override
        public CharSequence getCharContent(final boolean ignoreEncodingErrors) {
            return code;
        }
    }
}
