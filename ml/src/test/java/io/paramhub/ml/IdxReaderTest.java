package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests reading gzip'd IDX files written by the test itself. */
class IdxReaderTest {

    @TempDir
    Path dir;

    static void writeIdx(final Path file, final int magic, final int[] dimensions, final int[] bytes)
            throws IOException {
        try (DataOutputStream out = new DataOutputStream(new GZIPOutputStream(Files.newOutputStream(file)))) {
            out.writeInt(magic);
            for (final int dimension : dimensions) {
                out.writeInt(dimension);
            }
            for (final int value : bytes) {
                out.writeByte(value);
            }
        }
    }

    @Test
    void shouldScalePixelsWhenReadingImages() throws IOException {
        // given: two images of 2x3
        final Path file = dir.resolve("images.gz");
        writeIdx(file, 2051, new int[] {2, 2, 3}, new int[] {0, 255, 51, 102, 153, 204, 1, 2, 3, 4, 5, 255});

        // when
        final IdxImages images = IdxReader.readImageFile(file);
        final float[] pixels = IdxReader.readImages(file);

        // then
        assertThat(images.count()).isEqualTo(2);
        assertThat(images.rows()).isEqualTo(2);
        assertThat(images.cols()).isEqualTo(3);
        assertThat(images.features()).isEqualTo(6);
        assertThat(pixels)
                .hasSize(12)
                .startsWith(0f, 1f, 0.2f, 0.4f, 0.6f, 0.8f)
                .endsWith(1f);
        assertThat(images.pixels()).containsExactly(pixels);
    }

    @Test
    void shouldKeepBytesStandingForTheScaledPixelsWhenReadingFeatures() throws IOException {
        // given: every byte once, as 256 items of 1x1
        final int[] bytes = new int[256];
        final float[] scaled = new float[256];
        for (int b = 0; b < 256; b++) {
            bytes[b] = b;
            scaled[b] = (b & 0xFF) / 255f;
        }
        final Path file = dir.resolve("all.gz");
        writeIdx(file, 2051, new int[] {256, 1, 1}, bytes);

        // when
        final IdxArray features = IdxReader.readFeatures(file);

        // then: the codes are the bytes, and they stand for exactly the floats of the float reader
        assertThat(features.codes()).hasSize(256).startsWith((byte) 0, (byte) 1).endsWith((byte) 255);
        assertThat(features.values()).isEqualTo(IdxReader.readImages(file)).isEqualTo(scaled);
        assertThat(IdxReader.pixelLevels()).isEqualTo(scaled);
    }

    @Test
    void shouldReadFloatsWhenReadingFeaturesOfAnotherType() throws IOException {
        // given: signed bytes
        final Path file = dir.resolve("signed.gz");
        writeIdx(file, 0x0902, new int[] {1, 2}, new int[] {-1, 7});

        // when
        final IdxArray features = IdxReader.readFeatures(file);

        // then
        assertThat(features.codes()).isNull();
        assertThat(features.values()).containsExactly(-1, 7);
    }

    @Test
    void shouldReadUnsignedBytesWhenReadingLabels() throws IOException {
        // given
        final Path file = dir.resolve("labels.gz");
        writeIdx(file, 2049, new int[] {4}, new int[] {0, 9, 3, 200});

        // when
        final float[] labels = IdxReader.readLabels(file);

        // then
        assertThat(labels).containsExactly(0, 9, 3, 200);
    }

    @Test
    void shouldNameFileWhenMagicNumberIsWrong() throws IOException {
        // given: a label file passed as images
        final Path file = dir.resolve("labels.gz");
        writeIdx(file, 2049, new int[] {1}, new int[] {7});

        // when / then
        assertThatThrownBy(() -> IdxReader.readImages(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("2049");
    }

    @Test
    void shouldNameFileWhenTruncated() throws IOException {
        // given: header says 3 labels, only 2 present
        final Path labels = dir.resolve("short-labels.gz");
        writeIdx(labels, 2049, new int[] {3}, new int[] {1, 2});
        final Path images = dir.resolve("short-header.gz");
        writeIdx(images, 2051, new int[] {1}, new int[0]);

        // when / then
        assertThatThrownBy(() -> IdxReader.readLabels(labels))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(labels.toString())
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> IdxReader.readImages(images))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(images.toString());
    }
}
