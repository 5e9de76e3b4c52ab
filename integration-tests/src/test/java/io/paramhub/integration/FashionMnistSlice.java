package io.paramhub.integration;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The first images of Debian's Fashion-MNIST, as a directory that {@code fashion-mnist:DIR} loads: the four IDX
 * files under their usual names, each cut to its first items, so that a test trains the real data in seconds.
 */
final class FashionMnistSlice {

    private static final Path DEBIAN = Path.of("/usr/share/datasets/fashion-mnist");

    private FashionMnistSlice() {}

    /** Writes {@code train} training and {@code test} test images with their labels to {@code dir}. */
    static Path write(final Path dir, final int train, final int test) throws IOException {
        Files.createDirectories(dir);
        cut("train-images-idx3-ubyte.gz", dir, train, 16, 28 * 28);
        cut("train-labels-idx1-ubyte.gz", dir, train, 8, 1);
        cut("t10k-images-idx3-ubyte.gz", dir, test, 16, 28 * 28);
        cut("t10k-labels-idx1-ubyte.gz", dir, test, 8, 1);
        return dir;
    }

    private static void cut(final String name, final Path dir, final int items, final int header, final int itemBytes)
            throws IOException {
        try (InputStream raw = new GZIPInputStream(Files.newInputStream(DEBIAN.resolve(name)));
                DataInputStream in = new DataInputStream(raw);
                OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve(name)))) {
            final byte[] head = new byte[header];
            in.readFully(head);
            // the item count is the header's second big-endian int
            ByteBuffer.wrap(head).putInt(4, items);
            out.write(head);
            final byte[] body = new byte[items * itemBytes];
            in.readFully(body);
            out.write(body);
        }
    }
}
