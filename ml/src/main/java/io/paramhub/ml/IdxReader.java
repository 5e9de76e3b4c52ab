package io.paramhub.ml;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Reads gzip'd IDX files, the format of MNIST and Fashion-MNIST: a big-endian magic number
 * (2051 for unsigned-byte images of three dimensions, 2049 for unsigned-byte labels of one),
 * the dimensions, then one unsigned byte per value.
 */
public final class IdxReader {

    /** Magic number of an unsigned-byte, three-dimensional IDX file. */
    public static final int IMAGES_MAGIC = 2051;
    /** Magic number of an unsigned-byte, one-dimensional IDX file. */
    public static final int LABELS_MAGIC = 2049;

    private static final int BUFFER_BYTES = 1 << 16;

    private IdxReader() {}

    /** The pixels of all images, row-major, each byte divided by 255. */
    public static float[] readImages(final Path file) throws IOException {
        return readImageFile(file).pixels();
    }

    /** All images with their dimensions, each byte divided by 255. */
    public static IdxImages readImageFile(final Path file) throws IOException {
        try (DataInputStream in = open(file)) {
            requireMagic(file, in.readInt(), IMAGES_MAGIC);
            final int count = requireDimension(file, "image count", in.readInt());
            final int rows = requireDimension(file, "rows", in.readInt());
            final int cols = requireDimension(file, "columns", in.readInt());
            final long total = (long) count * rows * cols;
            if (total > Integer.MAX_VALUE - 8) {
                throw new IOException(file + ": " + count + " images of " + rows + "x" + cols + " are too many");
            }
            final byte[] bytes = readBytes(file, in, (int) total);
            final float[] pixels = new float[bytes.length];
            for (int i = 0; i < bytes.length; i++) {
                pixels[i] = (bytes[i] & 0xFF) / 255f;
            }
            return new IdxImages(count, rows, cols, pixels);
        } catch (final EOFException e) {
            throw truncated(file, e);
        }
    }

    /** The labels, each unsigned byte as a float. */
    public static float[] readLabels(final Path file) throws IOException {
        try (DataInputStream in = open(file)) {
            requireMagic(file, in.readInt(), LABELS_MAGIC);
            final int count = requireDimension(file, "label count", in.readInt());
            final byte[] bytes = readBytes(file, in, count);
            final float[] labels = new float[count];
            for (int i = 0; i < count; i++) {
                labels[i] = bytes[i] & 0xFF;
            }
            return labels;
        } catch (final EOFException e) {
            throw truncated(file, e);
        }
    }

    private static DataInputStream open(final Path file) throws IOException {
        final InputStream raw = Files.newInputStream(file);
        try {
            return new DataInputStream(new BufferedInputStream(new GZIPInputStream(raw, BUFFER_BYTES), BUFFER_BYTES));
        } catch (final IOException e) {
            raw.close();
            throw new IOException(file + ": not a gzip file", e);
        }
    }

    private static byte[] readBytes(final Path file, final DataInputStream in, final int count) throws IOException {
        final byte[] bytes = new byte[count];
        try {
            in.readFully(bytes);
        } catch (final EOFException e) {
            throw truncated(file, e);
        }
        return bytes;
    }

    private static void requireMagic(final Path file, final int magic, final int expected) throws IOException {
        if (magic != expected) {
            throw new IOException(file + ": magic number " + magic + ", expected " + expected);
        }
    }

    private static int requireDimension(final Path file, final String name, final int value) throws IOException {
        if (value < 0) {
            throw new IOException(file + ": negative " + name + " " + value);
        }
        return value;
    }

    private static IOException truncated(final Path file, final EOFException cause) {
        return new IOException(file + ": truncated IDX file", cause);
    }
}
