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
 * Reads IDX files, the format of MNIST and Fashion-MNIST, gzip'd or not: a big-endian magic number (two zero
 * bytes, the type of the values, the number of dimensions; 2051 for unsigned-byte images of three dimensions,
 * 2049 for unsigned-byte labels of one), each dimension as a big-endian int, then the values, big-endian.
 */
public final class IdxReader {

    /** Magic number of an unsigned-byte, three-dimensional IDX file. */
    public static final int IMAGES_MAGIC = 2051;
    /** Magic number of an unsigned-byte, one-dimensional IDX file. */
    public static final int LABELS_MAGIC = 2049;
    /** Type code of unsigned bytes. */
    public static final int UNSIGNED_BYTE = 0x08;
    /** Type code of signed bytes. */
    public static final int SIGNED_BYTE = 0x09;
    /** Type code of big-endian 16-bit integers. */
    public static final int SHORT = 0x0B;
    /** Type code of big-endian 32-bit integers. */
    public static final int INT = 0x0C;
    /** Type code of big-endian 32-bit floats. */
    public static final int FLOAT = 0x0D;
    /** Type code of big-endian 64-bit floats. */
    public static final int DOUBLE = 0x0E;

    private static final int BUFFER_BYTES = 1 << 16;
    /** The float of each unsigned byte read as a pixel: the byte divided by 255. */
    private static final float[] PIXEL_LEVELS = new float[Dataset.LEVELS];

    static {
        for (int b = 0; b < PIXEL_LEVELS.length; b++) {
            PIXEL_LEVELS[b] = (b & 0xFF) / 255f;
        }
    }

    private static final int GZIP_MAGIC = 0x1f8b;

    private IdxReader() {}

    /** The pixels of all images, row-major, each byte divided by 255. */
    public static float[] readImages(final Path file) throws IOException {
        return readImageFile(file).pixels();
    }

    /** All images with their dimensions, each byte divided by 255. */
    public static IdxImages readImageFile(final Path file) throws IOException {
        final IdxArray array = read(file, IMAGES_MAGIC, true, false);
        final int[] dimensions = array.dimensions();
        return new IdxImages(dimensions[0], dimensions[1], dimensions[2], array.values());
    }

    /** The labels, each unsigned byte as a float. */
    public static float[] readLabels(final Path file) throws IOException {
        return read(file, LABELS_MAGIC, false, false).values();
    }

    /**
     * Every value of an IDX file of any type and number of dimensions: unsigned bytes divided by 255 when
     * {@code scaleBytes} (as image pixels are read), every other value as it is.
     *
     * @throws IOException naming the file, if it cannot be read, is not an IDX file or is truncated
     */
    public static IdxArray read(final Path file, final boolean scaleBytes) throws IOException {
        return read(file, 0, scaleBytes, false);
    }

    /**
     * As {@code read(file, true)}, but an unsigned-byte file keeps its bytes as {@link IdxArray#codes} (a quarter
     * of the memory) with {@link #pixelLevels} as what they stand for; a file of another type is read as floats.
     *
     * @throws IOException naming the file, if it cannot be read, is not an IDX file or is truncated
     */
    public static IdxArray readFeatures(final Path file) throws IOException {
        return read(file, 0, true, true);
    }

    /** The float each unsigned byte code stands for as a pixel, {@code levels[b] = b / 255f}; not a copy. */
    static float[] pixelLevels() {
        return PIXEL_LEVELS;
    }

    private static IdxArray read(
            final Path file, final int expectedMagic, final boolean scaleBytes, final boolean keepBytes)
            throws IOException {
        try (DataInputStream in = open(file)) {
            final int magic = in.readInt();
            if (expectedMagic != 0 && magic != expectedMagic) {
                throw new IOException(file + ": magic number " + magic + ", expected " + expectedMagic);
            }
            final int type = (magic >>> 8) & 0xFF;
            final int rank = magic & 0xFF;
            if ((magic >>> 16) != 0 || rank == 0 || bytesOf(type) == 0) {
                throw new IOException(file + ": magic number " + magic + " is not that of an IDX file");
            }
            final int[] dimensions = new int[rank];
            long total = 1;
            for (int d = 0; d < rank; d++) {
                dimensions[d] = in.readInt();
                if (dimensions[d] < 0) {
                    throw new IOException(file + ": negative dimension " + dimensions[d]);
                }
                total *= dimensions[d];
                if (total > Integer.MAX_VALUE - 8) {
                    throw new IOException(file + ": more than " + (Integer.MAX_VALUE - 8) + " values");
                }
            }
            if (keepBytes && type == UNSIGNED_BYTE) {
                final byte[] codes = new byte[(int) total];
                in.readFully(codes);
                return IdxArray.ofCodes(dimensions, codes);
            }
            return new IdxArray(type, dimensions, values(in, type, (int) total, scaleBytes));
        } catch (final EOFException e) {
            throw new IOException(file + ": truncated IDX file", e);
        }
    }

    private static float[] values(final DataInputStream in, final int type, final int count, final boolean scaleBytes)
            throws IOException {
        final float[] values = new float[count];
        if (type == UNSIGNED_BYTE || type == SIGNED_BYTE) {
            final byte[] bytes = new byte[count];
            in.readFully(bytes);
            for (int i = 0; i < count; i++) {
                if (type == SIGNED_BYTE) {
                    values[i] = bytes[i];
                } else {
                    values[i] = scaleBytes ? (bytes[i] & 0xFF) / 255f : bytes[i] & 0xFF;
                }
            }
            return values;
        }
        for (int i = 0; i < count; i++) {
            values[i] = switch (type) {
                case SHORT -> in.readShort();
                case INT -> in.readInt();
                case FLOAT -> in.readFloat();
                default -> (float) in.readDouble();
            };
        }
        return values;
    }

    private static int bytesOf(final int type) {
        return switch (type) {
            case UNSIGNED_BYTE, SIGNED_BYTE -> 1;
            case SHORT -> 2;
            case INT, FLOAT -> 4;
            case DOUBLE -> 8;
            default -> 0;
        };
    }

    private static DataInputStream open(final Path file) throws IOException {
        final InputStream raw = new BufferedInputStream(Files.newInputStream(file), BUFFER_BYTES);
        try {
            raw.mark(2);
            final int first = raw.read();
            final int second = raw.read();
            raw.reset();
            final boolean gzip = (first << 8 | second) == GZIP_MAGIC;
            return new DataInputStream(
                    gzip ? new BufferedInputStream(new GZIPInputStream(raw, BUFFER_BYTES), BUFFER_BYTES) : raw);
        } catch (final IOException e) {
            raw.close();
            throw new IOException(file + ": not a gzip file", e);
        }
    }
}
