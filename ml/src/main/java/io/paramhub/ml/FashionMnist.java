package io.paramhub.ml;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads Fashion-MNIST (60,000 training and 10,000 test images of 28x28 pixels, 10 classes) from
 * the gzip'd IDX files of Debian's {@code dataset-fashion-mnist} package: two pairs of IDX files, read as
 * {@link IdxProvider} reads any.
 */
public final class FashionMnist {

    /** Where Debian's {@code dataset-fashion-mnist} installs the files. */
    public static final Path DEFAULT_DIR = Path.of("/usr/share/datasets/fashion-mnist");
    /** Environment variable that overrides {@link #DEFAULT_DIR} in {@link #load()}. */
    public static final String DIR_ENV = "PARAMHUB_FASHION_MNIST_DIR";
    /** Pixels per image. */
    public static final int FEATURES = 784;
    /** Clothing classes. */
    public static final int CLASSES = 10;

    static final String TRAIN_IMAGES = "train-images-idx3-ubyte.gz";
    static final String TRAIN_LABELS = "train-labels-idx1-ubyte.gz";
    static final String TEST_IMAGES = "t10k-images-idx3-ubyte.gz";
    static final String TEST_LABELS = "t10k-labels-idx1-ubyte.gz";

    private static final Logger log = LoggerFactory.getLogger(FashionMnist.class);

    private FashionMnist() {}

    /** Loads from {@code $PARAMHUB_FASHION_MNIST_DIR} if set, else from {@link #DEFAULT_DIR}. */
    public static TrainTest load() {
        final String override = System.getenv(DIR_ENV);
        return load(override == null || override.isBlank() ? DEFAULT_DIR : Path.of(override));
    }

    /**
     * Loads the full training and test sets from a directory: images of any shape, classes 0 to the largest
     * training label.
     *
     * @throws DatasetUnavailableException if a file is missing
     * @throws DataFileException if a file cannot be read or is not a valid IDX file, or the counts differ
     */
    public static TrainTest load(final Path dir) {
        for (final String name : List.of(TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS)) {
            final Path file = dir.resolve(name);
            if (!Files.isRegularFile(file)) {
                throw new DatasetUnavailableException("Fashion-MNIST file " + file + " not found; install Debian's "
                        + "package with \"sudo apt-get install dataset-fashion-mnist\", or set " + DIR_ENV
                        + " to a directory holding " + name);
            }
        }
        final long start = System.nanoTime();
        final Dataset train =
                IdxProvider.pair("fashion-mnist-train", dir.resolve(TRAIN_IMAGES), dir.resolve(TRAIN_LABELS), 0);
        final TrainTest data = new TrainTest(
                train,
                IdxProvider.pair(
                        "fashion-mnist-test", dir.resolve(TEST_IMAGES), dir.resolve(TEST_LABELS), train.classes()));
        log.info(
                "loaded Fashion-MNIST from {}: {} train, {} test samples in {} ms",
                dir,
                data.train().size(),
                data.test().size(),
                (System.nanoTime() - start) / 1_000_000);
        return data;
    }
}
