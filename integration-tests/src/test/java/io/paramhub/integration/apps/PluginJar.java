package io.paramhub.integration.apps;

import io.paramhub.ml.Model;
import io.paramhub.ml.ModelProvider;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

/**
 * A user's model jar, built as a user builds one: a {@link ModelProvider}'s source compiled here against
 * ParamHub's ml classes, packed with its {@code META-INF/services} entry. Its classes are on no classpath of the
 * tests or the apps; only {@code --plugins} brings them in.
 */
public final class PluginJar {

    private PluginJar() {}

    /** Compiles {@code source}, the provider class {@code provider}, into {@code jar}, listed as a ModelProvider. */
    public static Path modelProvider(final Path jar, final String provider, final String source) throws IOException {
        final Path classes = Files.createTempDirectory(jar.toAbsolutePath().getParent(), "plugin-classes");
        final DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        final JavaFileObject unit =
                new SimpleJavaFileObject(
                        URI.create("string:///" + provider.replace('.', '/') + JavaFileObject.Kind.SOURCE.extension),
                        JavaFileObject.Kind.SOURCE) {
                    @Override
                    public CharSequence getCharContent(final boolean ignoreEncodingErrors) {
                        return source;
                    }
                };
        final List<String> options =
                List.of("-classpath", mlClasses().toString(), "-d", classes.toString(), "--release", "17");
        if (!ToolProvider.getSystemJavaCompiler()
                .getTask(null, null, diagnostics, options, null, List.of(unit))
                .call()) {
            throw new IllegalStateException("the plugin does not compile: " + diagnostics.getDiagnostics());
        }
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            for (final Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(
                        new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(file));
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry("META-INF/services/" + ModelProvider.class.getName()));
            out.write((provider + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }

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
}
