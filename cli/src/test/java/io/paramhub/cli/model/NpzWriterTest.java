package io.paramhub.cli.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.TensorShape;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;

class NpzWriterTest {

    private static final ExportedModel MODEL = new ExportedModel(
            "job-n",
            7,
            "softmax",
            true,
            List.of(new TensorShape("weight", List.of(2, 3)), new TensorShape("bias", List.of(2))),
            new float[] {1f, 2f, 3f, 4f, 5f, 6f, -0.5f, 0.25f});

    @Test
    void shouldWriteOneNpyEntryPerTensorWhenWritingNpz() throws IOException {
        // given
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        // when
        NpzWriter.write(MODEL, out);

        // then
        final Map<String, byte[]> entries = unzip(out.toByteArray());
        assertThat(entries).containsOnlyKeys("weight.npy", "bias.npy");
        assertThat(header(entries.get("weight.npy")))
                .startsWith("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }")
                .endsWith("\n");
        assertThat(header(entries.get("bias.npy"))).contains("'shape': (2,), }");
        assertThat(data(entries.get("weight.npy"))).containsExactly(1f, 2f, 3f, 4f, 5f, 6f);
        assertThat(data(entries.get("bias.npy"))).containsExactly(-0.5f, 0.25f);
    }

    @Test
    void shouldAlignTheDataOn64BytesWhenWritingAnNpyHeader() {
        // given
        final List<List<Integer>> shapes = List.of(List.of(), List.of(5), List.of(2, 3), List.of(32, 1, 3, 3));

        for (final List<Integer> shape : shapes) {
            // when
            final byte[] header = NpzWriter.header(shape);

            // then: magic 6, version 2, header length 2
            assertThat((10 + header.length) % 64).isZero();
            assertThat(header[header.length - 1]).isEqualTo((byte) '\n');
        }
        assertThat(new String(NpzWriter.header(List.of()), StandardCharsets.US_ASCII))
                .contains("'shape': (), }");
    }

    private static Map<String, byte[]> unzip(final byte[] zip) throws IOException {
        final Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                entries.put(entry.getName(), in.readAllBytes());
            }
        }
        return entries;
    }

    private static String header(final byte[] npy) {
        assertThat(npy)
                .startsWith(
                        (byte) 0x93, (byte) 'N', (byte) 'U', (byte) 'M', (byte) 'P', (byte) 'Y', (byte) 1, (byte) 0);
        final int length = (npy[8] & 0xff) | (npy[9] & 0xff) << 8;
        return new String(npy, 10, length, StandardCharsets.US_ASCII);
    }

    private static float[] data(final byte[] npy) {
        final int start = 10 + ((npy[8] & 0xff) | (npy[9] & 0xff) << 8);
        final ByteBuffer values =
                ByteBuffer.wrap(npy, start, npy.length - start).order(ByteOrder.LITTLE_ENDIAN);
        final float[] floats = new float[values.remaining() / Float.BYTES];
        values.asFloatBuffer().get(floats);
        return floats;
    }
}
