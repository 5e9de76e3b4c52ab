package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tests loading Fashion-MNIST and the message when it is missing. */
class FashionMnistTest {

    @TempDir
    Path dir;

    @Test
    void shouldExplainHowToInstallWhenDirectoryIsMissing() {
        // given
        final Path missing = dir.resolve("nowhere");

        // when / then
        assertThatThrownBy(() -> FashionMnist.load(missing))
                .isInstanceOf(DatasetUnavailableException.class)
                .hasMessageContaining(
                        missing.resolve("train-images-idx3-ubyte.gz").toString())
                .hasMessageContaining("sudo apt-get install dataset-fashion-mnist");
    }

    @Test
    void shouldNameMissingFileWhenOnlySomeArePresent() throws IOException {
        // given
        IdxReaderTest.writeIdx(dir.resolve("train-images-idx3-ubyte.gz"), 2051, new int[] {0, 28, 28}, new int[0]);
        IdxReaderTest.writeIdx(dir.resolve("train-labels-idx1-ubyte.gz"), 2049, new int[] {0}, new int[0]);

        // when / then
        assertThatThrownBy(() -> FashionMnist.load(dir))
                .isInstanceOf(DatasetUnavailableException.class)
                .hasMessageContaining("t10k-images-idx3-ubyte.gz")
                .hasMessageContaining("apt-get");
    }

    @Test
    void shouldRejectFilesWhenCountsDiffer() throws IOException {
        // given: one image, two labels
        IdxReaderTest.writeIdx(dir.resolve("train-images-idx3-ubyte.gz"), 2051, new int[] {1, 28, 28}, new int[784]);
        IdxReaderTest.writeIdx(dir.resolve("train-labels-idx1-ubyte.gz"), 2049, new int[] {2}, new int[] {1, 2});
        IdxReaderTest.writeIdx(dir.resolve("t10k-images-idx3-ubyte.gz"), 2051, new int[] {1, 28, 28}, new int[784]);
        IdxReaderTest.writeIdx(dir.resolve("t10k-labels-idx1-ubyte.gz"), 2049, new int[] {1}, new int[] {3});

        // when / then
        assertThatThrownBy(() -> FashionMnist.load(dir))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("2 labels");
    }

    @Test
    void shouldLoadFullSetsWhenPackageIsInstalled() {
        // when
        final TrainTest data = FashionMnist.load(FashionMnist.DEFAULT_DIR);

        // then
        assertThat(data.train().size()).isEqualTo(60_000);
        assertThat(data.test().size()).isEqualTo(10_000);
        assertThat(data.train().features()).isEqualTo(784);
        assertThat(data.train().classes()).isEqualTo(10);
        assertThat(data.train().y()).contains(0f, 1f, 2f, 3f, 4f, 5f, 6f, 7f, 8f, 9f);
        for (final float label : data.test().y()) {
            assertThat(label).isBetween(0f, 9f);
        }
        float max = 0;
        for (final float pixel : data.train().x()) {
            assertThat(pixel).isBetween(0f, 1f);
            max = Math.max(max, pixel);
        }
        assertThat(max).isEqualTo(1f);
    }

    @Test
    void shouldHoldTheSameFloatsAsBytesWhenPackageIsInstalled() throws IOException {
        // when
        final Dataset test = FashionMnist.load(FashionMnist.DEFAULT_DIR).test();

        // then: one byte a pixel, each standing for the float the float reader gives
        assertThat(test.hasCodes()).isTrue();
        assertThat(test.x())
                .isEqualTo(IdxReader.readImages(FashionMnist.DEFAULT_DIR.resolve(FashionMnist.TEST_IMAGES)));
    }
}
