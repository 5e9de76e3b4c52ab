package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests the {@code idx:} data sets: any shape, type and class count, plain or gzip'd. */
class IdxProviderTest {

    @TempDir
    Path dir;

    /** A plain (not gzip'd) IDX file of 32-bit ints. */
    private Path intIdx(final String name, final int[] dimensions, final int[] values) throws IOException {
        final Path file = dir.resolve(name);
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
            out.writeInt(IdxReader.INT << 8 | dimensions.length);
            for (final int dimension : dimensions) {
                out.writeInt(dimension);
            }
            for (final int value : values) {
                out.writeInt(value);
            }
        }
        return file;
    }

    @Test
    void shouldTakeShapeAndClassesFromTheFilesWhenTheyAreNotFashionMnists() throws IOException {
        // given: 4 items of 2x3 ints, 3 classes; a gzip'd unsigned-byte test pair of 1 item
        final Path images = intIdx("x.idx", new int[] {4, 2, 3}, new int[24]);
        final Path labels = intIdx("y.idx", new int[] {4}, new int[] {0, 2, 1, 2});
        final Path testImages = dir.resolve("tx.gz");
        final Path testLabels = dir.resolve("ty.gz");
        IdxReaderTest.writeIdx(testImages, 0x0803, new int[] {1, 2, 3}, new int[] {0, 255, 51, 0, 0, 0});
        IdxReaderTest.writeIdx(testLabels, 0x0801, new int[] {1}, new int[] {1});

        // when
        final TrainTest data = DataSources.load(
                "idx:" + images + "," + labels + ",test-images=" + testImages + ",test-labels=" + testLabels);

        // then
        assertThat(data.train().features()).isEqualTo(6);
        assertThat(data.train().classes()).isEqualTo(3);
        assertThat(data.train().y()).containsExactly(0, 2, 1, 2);
        assertThat(data.test().x()).containsExactly(0, 1, 0.2f, 0, 0, 0);
        assertThat(data.test().hasCodes()).isTrue();
        assertThat(data.train().hasCodes()).isFalse();
        assertThat(data.preprocessing()).isEqualTo(Preprocessing.NONE);
    }

    @Test
    void shouldHoldExactlyTheFloatsOfTheFloatReaderWhenImagesAreUnsignedBytes() throws IOException {
        // given: 8 images of 4x8 pixels, the 256 byte values between them; a holdout split
        final int[] pixels = new int[256];
        final int[] labels = new int[8];
        for (int i = 0; i < 256; i++) {
            pixels[i] = (i * 37) % 256;
        }
        for (int i = 0; i < 8; i++) {
            labels[i] = i % 3;
        }
        final Path images = dir.resolve("images.gz");
        final Path labelFile = dir.resolve("labels.gz");
        IdxReaderTest.writeIdx(images, 0x0803, new int[] {8, 4, 8}, pixels);
        IdxReaderTest.writeIdx(labelFile, 0x0801, new int[] {8}, labels);
        final float[] floats = IdxReader.readImages(images);

        // when
        final TrainTest all = DataSources.load(
                "idx:" + images + "," + labelFile + ",test-images=" + images + ",test-labels=" + labelFile);
        final TrainTest split = DataSources.load("idx:" + images + "," + labelFile + ",holdout=0.25,seed=3");

        // then: every row of either storage, held out or not, is the float reader's row
        final Dataset train = all.train();
        assertThat(train.hasCodes()).isTrue();
        final float[] row = new float[32];
        for (int i = 0; i < 8; i++) {
            train.copyRow(i, row, 0);
            assertThat(row).isEqualTo(Arrays.copyOfRange(floats, i * 32, (i + 1) * 32));
        }
        assertThat(train.x()).isEqualTo(floats);
        assertThat(split.train().hasCodes()).isTrue();
        assertThat(split.test().hasCodes()).isTrue();
        final boolean[] held = Holdout.testRows(8, 0.25, 3);
        int test = 0;
        for (int i = 0; i < 8; i++) {
            if (held[i]) {
                split.test().copyRow(test++, row, 0);
                assertThat(row).isEqualTo(Arrays.copyOfRange(floats, i * 32, (i + 1) * 32));
            }
        }
        assertThat(test).isEqualTo(split.test().size());
    }

    @Test
    void shouldHoldOutTheRowsOfTheHoldoutWhenThereIsNoTestPair() throws IOException {
        // given: item i's only value is i
        final int[] values = new int[20];
        final int[] classes = new int[20];
        for (int i = 0; i < 20; i++) {
            values[i] = i;
            classes[i] = i % 2;
        }
        final Path images = intIdx("x.idx", new int[] {20, 1}, values);
        final Path labels = intIdx("y.idx", new int[] {20}, classes);

        // when
        final TrainTest data = DataSources.load("idx:" + images + "," + labels + ",holdout=0.2,seed=0");

        // then: HoldoutTest's reference rows
        assertThat(data.test().x()).containsExactly(5, 15, 18, 19);
        assertThat(data.train().size()).isEqualTo(16);
    }

    @Test
    void shouldNameTheItemWhenATestLabelIsOutsideTheTrainingClasses() throws IOException {
        // given
        final Path images = intIdx("x.idx", new int[] {2, 1}, new int[] {1, 2});
        final Path labels = intIdx("y.idx", new int[] {2}, new int[] {0, 1});
        final Path testLabels = intIdx("ty.idx", new int[] {2}, new int[] {1, 5});

        // when / then
        assertThatThrownBy(() -> DataSources.load(
                        "idx:" + images + "," + labels + ",test-images=" + images + ",test-labels=" + testLabels))
                .isInstanceOf(DataFileException.class)
                .hasMessage(testLabels + ":item 2: label 5 is outside the training set's classes 0 to 1");
    }

    @Test
    void shouldNameTheFileWhenItIsNotIdxOrTheCountsDiffer() throws IOException {
        // given
        final Path images = intIdx("x.idx", new int[] {2, 1}, new int[] {1, 2});
        final Path labels = intIdx("y.idx", new int[] {3}, new int[] {0, 1, 1});
        final Path text = Files.writeString(dir.resolve("t.txt"), "hello, world");

        // when / then
        assertThatThrownBy(() -> DataSources.load("idx:" + images + "," + labels))
                .hasMessage(labels + ": holds 3 labels, x.idx 2 images of 1");
        assertThatThrownBy(() -> DataSources.load("idx:" + text + "," + labels))
                .isInstanceOf(DataFileException.class)
                .hasMessageStartingWith(text + ": magic number");
        assertThatThrownBy(() -> DataSources.files("idx:" + images + ",test-images=" + images))
                .hasMessageContaining("expected an images file and a labels file");
    }
}
