package io.paramhub.cli.model;

import io.paramhub.avro.TensorShape;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes a model as NumPy's {@code .npz}: a zip of one {@code NAME.npy} entry per tensor, each in NPY format 1.0
 * (dtype {@code <f4}, C order, the tensor's shape), which {@code numpy.load} opens as a dict of named arrays.
 */
public final class NpzWriter {

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    /** NumPy pads the header so that the data starts on a multiple of 64 bytes. */
    private static final int ALIGNMENT = 64;

    private NpzWriter() {}

    /** Writes {@code model}'s tensors to {@code out}, which it finishes but does not close. */
    public static void write(final ExportedModel model, final OutputStream out) throws IOException {
        final ZipOutputStream zip = new ZipOutputStream(out);
        int offset = 0;
        for (final TensorShape tensor : model.tensors()) {
            final int size = (int) ExportedModel.size(tensor);
            zip.putNextEntry(new ZipEntry(tensor.getName() + ".npy"));
            writeNpy(tensor.getShape(), model.parameters(), offset, size, zip);
            zip.closeEntry();
            offset += size;
        }
        zip.finish();
    }

    /** One NPY 1.0 array: {@code size} float32 values of {@code values} from {@code offset}, of {@code shape}. */
    static void writeNpy(
            final List<Integer> shape, final float[] values, final int offset, final int size, final OutputStream out)
            throws IOException {
        out.write(MAGIC);
        final byte[] header = header(shape);
        out.write(header.length & 0xff);
        out.write(header.length >>> 8);
        out.write(header);
        writeFloats(values, offset, size, out);
    }

    /** The header dict, padded with spaces and ended by a newline so that the data is aligned. */
    static byte[] header(final List<Integer> shape) {
        final String dims = shape.stream().map(String::valueOf).collect(Collectors.joining(", "));
        final String tuple = shape.size() == 1 ? "(" + dims + ",)" : "(" + dims + ")";
        final StringBuilder header =
                new StringBuilder("{'descr': '<f4', 'fortran_order': False, 'shape': " + tuple + ", }");
        final int unpadded = MAGIC.length + 2 + header.length() + 1;
        header.append(" ".repeat((ALIGNMENT - unpadded % ALIGNMENT) % ALIGNMENT))
                .append('\n');
        if (header.length() > 0xffff) {
            throw new IllegalArgumentException("a tensor of " + shape.size() + " dimensions does not fit NPY 1.0");
        }
        return header.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code size} values from {@code offset}, little-endian float32, in chunks. */
    static void writeFloats(final float[] values, final int offset, final int size, final OutputStream out)
            throws IOException {
        final ByteBuffer chunk = ByteBuffer.allocate(64 * 1024).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = offset; i < offset + size; i++) {
            if (chunk.remaining() < Float.BYTES) {
                out.write(chunk.array(), 0, chunk.position());
                chunk.clear();
            }
            chunk.putFloat(values[i]);
        }
        out.write(chunk.array(), 0, chunk.position());
    }
}
