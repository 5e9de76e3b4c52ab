package io.paramhub.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deletes the temporary directories the embedded broker and apps leave behind. */
public final class Directories {

    private Directories() {}

    public static void deleteRecursively(final Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (final IOException | UncheckedIOException e) {
            throw new UncheckedIOException(
                    "could not delete " + dir,
                    e instanceof IOException io ? io : ((UncheckedIOException) e).getCause());
        }
    }
}
