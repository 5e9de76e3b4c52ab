package io.paramhub.ml;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A data file that cannot be read, or that holds data that cannot be trained on. The message is one line,
 * {@code FILE:LOCATION: problem}: for a text file the location is {@code LINE:COLUMN} (1-based; a CSV column
 * is the number of the cell in its row), for an Avro file {@code record N, field F}, and it is left out when
 * the problem is the file as a whole ({@code FILE: cannot be read: ...}).
 */
public final class DataFileException extends UncheckedIOException {

    private final transient Path file;
    private final String location;

    /** A problem at {@code location} ({@code ""} for the whole file) of {@code file}. */
    public DataFileException(final Path file, final String location, final String problem) {
        this(file, location, problem, null);
    }

    /** As {@link #DataFileException(Path, String, String)}, caused by {@code cause}. */
    public DataFileException(final Path file, final String location, final String problem, final IOException cause) {
        super(
                message(file, location, problem),
                cause != null ? cause : new IOException(message(file, location, problem)));
        this.file = file;
        this.location = location;
    }

    /** A problem at a line and column of a text file, both 1-based. */
    public static DataFileException at(final Path file, final long line, final int column, final String problem) {
        return new DataFileException(file, line + ":" + column, problem);
    }

    /**
     * {@code cause}, an error reading {@code file}, as one: its message without the file's name when it starts
     * with it ({@link IdxReader}'s do), else {@code cannot be read: no such file} and the like.
     */
    public static DataFileException of(final Path file, final IOException cause) {
        final String message = cause.getMessage() == null ? "" : cause.getMessage();
        final String prefix = file + ": ";
        if (message.startsWith(prefix)) {
            return new DataFileException(file, "", message.substring(prefix.length()), cause);
        }
        final String reason = cause instanceof NoSuchFileException
                ? "no such file"
                : cause instanceof AccessDeniedException
                        ? "permission denied"
                        : message.isEmpty() ? cause.getClass().getSimpleName() : message;
        return new DataFileException(file, "", "cannot be read: " + reason, cause);
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /** Where in the file: {@code LINE:COLUMN}, {@code record N, field F}, or empty for the whole file. */
    public String location() {
        return location;
    }

    private static String message(final Path file, final String location, final String problem) {
        return file + (location == null || location.isEmpty() ? "" : ":" + location) + ": " + problem;
    }
}
