package io.paramhub.ml;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code idx:IMAGES,LABELS[,test-images=PATH,test-labels=PATH|holdout=F][,seed=N]}: IDX files (gzip'd or not) of
 * any shape and type, as MNIST's (docs/data.md). An item of the images file, of any number of dimensions, is
 * one sample's features, row-major (unsigned bytes divided by 255, held as one byte each, see
 * {@link Dataset#ofCodes}; other types as they are, as floats); the labels file
 * holds one whole number {@code >= 0} per item, and the classes are 0 to the largest training label. The test
 * set is the pair {@code test-images=}/{@code test-labels=} name, or a {@link Holdout} of {@code holdout=F}
 * (default 0.2) with {@code seed=N} (default 0). Fashion-MNIST ({@link FashionMnist}) is one such pair.
 */
public final class IdxProvider implements DatasetProvider {

    /** The kind, as in {@code idx:images.gz,labels.gz}. */
    public static final String KIND = "idx";

    private static final Set<String> KEYS = Set.of("test-images", "test-labels", "holdout", "seed");

    @Override
    public Set<String> kinds() {
        return Set.of(KIND);
    }

    @Override
    public List<String> forms() {
        return List.of("idx:<images>,<labels>[,test-images=<path>,test-labels=<path>|holdout=<fraction>][,seed=<n>]");
    }

    @Override
    public Set<String> pathKeys() {
        return Set.of("test-images", "test-labels");
    }

    @Override
    public void check(final DataSpec spec) {
        final DataOptions options = spec.options(KEYS);
        if (spec.positional().size() != 2) {
            throw options.problem("expected an images file and a labels file, as in idx:images.gz,labels.gz");
        }
        if (options.has("test-images") != options.has("test-labels")) {
            throw options.problem("give test-images= and test-labels= together");
        }
        if (options.has("test-images") && options.has("holdout")) {
            throw options.problem("give test-images= and test-labels=, or holdout=, not both");
        }
        final double holdout = options.doubleValue("holdout", Tables.DEFAULT_HOLDOUT);
        if (!(holdout > 0 && holdout < 1)) {
            throw options.problem("holdout must lie between 0 and 1, not " + holdout);
        }
        options.longValue("seed", 0);
    }

    @Override
    public TrainTest load(final DataSpec spec) {
        check(spec);
        final DataOptions options = spec.options(KEYS);
        final Path images = Path.of(spec.positional().get(0));
        final String name = CsvProvider.stem(images);
        final Dataset all =
                pair(name + "-train", images, Path.of(spec.positional().get(1)), 0);
        if (options.has("test-images")) {
            return new TrainTest(
                    all,
                    pair(
                            name + "-test",
                            Path.of(options.text("test-images", null)),
                            Path.of(options.text("test-labels", null)),
                            all.classes()));
        }
        final boolean[] test = Holdout.testRows(
                all.size(), options.doubleValue("holdout", Tables.DEFAULT_HOLDOUT), options.longValue("seed", 0));
        return new TrainTest(
                Holdout.select(all, test, false, name + "-train"), Holdout.select(all, test, true, name + "-test"));
    }

    /**
     * The samples of an images file and its labels file, named {@code name}, with {@code classes} classes (0: the
     * largest label + 1).
     *
     * @throws DataFileException if a file cannot be read, is not IDX, the counts differ, a label is not a whole
     *     number {@code >= 0}, or a label is outside the classes given
     */
    static Dataset pair(final String name, final Path imagesFile, final Path labelsFile, final int classes) {
        final IdxArray images = readImages(imagesFile);
        final IdxArray labels = readLabels(labelsFile);
        if (labels.width() != 1) {
            throw new DataFileException(
                    labelsFile, "", "holds items of " + labels.itemShape() + " values, a labels file one each");
        }
        if (images.count() != labels.count()) {
            throw new DataFileException(
                    labelsFile,
                    "",
                    "holds " + labels.count() + " labels, " + imagesFile.getFileName() + " " + images.count()
                            + " images of " + images.itemShape());
        }
        final float[] y = labels.values();
        int largest = 0;
        for (int i = 0; i < y.length; i++) {
            if (y[i] < 0 || y[i] != Math.rint(y[i])) {
                throw new DataFileException(
                        labelsFile, "item " + (i + 1), "label " + y[i] + " is not a whole number >= 0");
            }
            if (classes > 0 && y[i] >= classes) {
                throw new DataFileException(
                        labelsFile,
                        "item " + (i + 1),
                        "label " + (int) y[i] + " is outside the training set's classes 0 to " + (classes - 1));
            }
            largest = Math.max(largest, (int) y[i]);
        }
        final int count = classes > 0 ? classes : largest + 1;
        if (count < 2) {
            throw new DataFileException(labelsFile, "", "every label is 0: a classifier needs 2 classes or more");
        }
        if (images.width() < 1) {
            throw new DataFileException(imagesFile, "", "holds items of no values");
        }
        return images.dataset(name, y, count);
    }

    /** Unsigned-byte images stay one byte a pixel. */
    private static IdxArray readImages(final Path file) {
        try {
            return IdxReader.readFeatures(file);
        } catch (final IOException e) {
            throw DataFileException.of(file, e);
        }
    }

    private static IdxArray readLabels(final Path file) {
        try {
            return IdxReader.read(file, false);
        } catch (final IOException e) {
            throw DataFileException.of(file, e);
        }
    }
}
