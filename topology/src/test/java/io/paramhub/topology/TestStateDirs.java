package io.paramhub.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.utils.Utils;

/** Temporary state directories of topology test drivers: made under the system's temp directory, deleted whole. */
public final class TestStateDirs {

    private TestStateDirs() {}

    /** A new empty directory named {@code prefix} and a random suffix. */
    public static Path create(final String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code dir} and all it holds; nothing when it is gone already. */
    public static void delete(final Path dir) {
        try {
            Utils.delete(dir.toFile());
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
