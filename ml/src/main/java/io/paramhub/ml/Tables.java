package io.paramhub.ml;

import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the rows of a table-like file ({@link CsvProvider}, {@link AvroProvider}) into training and test sets:
 * the test set from a second file or a {@link Holdout}, class labels by {@link ClassLabels} (or numeric targets
 * for regression), and the features standardised with the training set's mean and spread (population standard
 * deviation; a constant feature is centred and divided by 1), all from the training rows alone.
 */
final class Tables {

    /** The options every table-like provider shares. */
    static final Set<String> KEYS = Set.of("label", "test", "holdout", "seed", "task", "standardize");
    /** The share of the rows held out as the test set when the spec names no test file and no fraction. */
    static final double DEFAULT_HOLDOUT = 0.2;

    private static final Logger log = LoggerFactory.getLogger(Tables.class);

    /**
     * How to build the sets, read from a spec's options.
     *
     * @param name the data set's name, the file's without its extension
     * @param regression whether the label is a numeric target ({@code task=regression}) rather than a class
     * @param holdout the fraction held out when there is no test file
     * @param seed the holdout's seed
     * @param standardize whether to standardise the features ({@code standardize=true}, the default)
     */
    record Options(String name, boolean regression, double holdout, long seed, boolean standardize) {

        /** The options of {@code options}, checked; {@code name} names the data set. */
        static Options of(final DataOptions options, final String name) {
            if (options.has("test") && options.has("holdout")) {
                throw options.problem("give test= or holdout=, not both");
            }
            final double holdout = options.doubleValue("holdout", DEFAULT_HOLDOUT);
            if (!(holdout > 0 && holdout < 1)) {
                throw options.problem("holdout must lie between 0 and 1, not " + holdout);
            }
            return new Options(
                    name,
                    options.choice("task", Set.of("classification", "regression"), "classification")
                            .equals("regression"),
                    holdout,
                    options.longValue("seed", 0),
                    options.bool("standardize", true));
        }
    }

    private Tables() {}

    /** The sets from {@code train} and {@code test} (null: hold a fraction of {@code train} out). */
    static TrainTest build(final RawRows train, final RawRows test, final Options options) {
        if (test == null && train.size() < 2) {
            throw new DataFileException(
                    train.file(), "", "a holdout needs at least 2 rows, the file has " + train.size());
        }
        final boolean[] heldOut =
                test == null ? Holdout.testRows(train.size(), options.holdout(), options.seed()) : null;
        final RawRows trainRows = heldOut == null ? train : train.select(heldOut, false);
        final RawRows testRows = heldOut == null ? test : train.select(heldOut, true);
        final ClassLabels classes = options.regression() ? null : ClassLabels.of(trainRows);
        final double[] mean = options.standardize() ? means(trainRows) : new double[0];
        final Preprocessing preprocessing = new Preprocessing(
                classes == null ? List.of() : classes.names(),
                mean,
                options.standardize() ? spreads(trainRows, mean) : new double[0]);
        final int classCount = classes == null ? 0 : classes.names().size();
        final TrainTest data = new TrainTest(
                dataset(options.name() + "-train", trainRows, classes, classCount, preprocessing),
                dataset(options.name() + "-test", testRows, classes, classCount, preprocessing),
                preprocessing);
        log.info(
                "{}: {} training and {} test rows ({}) of {} features, {}; features {}",
                train.file(),
                data.train().size(),
                data.test().size(),
                heldOut == null
                        ? "test file " + test.file()
                        : "holdout " + options.holdout() + ", seed " + options.seed(),
                train.features(),
                classes == null ? "a numeric target" : "classes in sorted order " + classes.names(),
                options.standardize() ? "standardised with the training set's mean and spread" : "as they are");
        return data;
    }

    private static Dataset dataset(
            final String name,
            final RawRows rows,
            final ClassLabels classes,
            final int classCount,
            final Preprocessing preprocessing) {
        final int features = rows.features();
        final float[] x = new float[rows.size() * features];
        final float[] y = new float[rows.size()];
        final double[] row = new double[features];
        for (int i = 0; i < rows.size(); i++) {
            for (int j = 0; j < features; j++) {
                row[j] = rows.value(i, j);
            }
            System.arraycopy(preprocessing.features(row), 0, x, i * features, features);
            y[i] = classes == null ? target(rows, i) : classOf(rows, i, classes);
        }
        return new Dataset(name, features, x, y, classCount);
    }

    private static float classOf(final RawRows rows, final int i, final ClassLabels classes) {
        final int index = classes.indexOf(rows.label(i));
        if (index < 0) {
            throw rows.labelProblem(
                    i,
                    "label '" + rows.label(i).trim() + "' is not one of the training set's classes "
                            + abbreviated(classes.names()));
        }
        return index;
    }

    private static float target(final RawRows rows, final int i) {
        final String label = rows.label(i).trim();
        final double value;
        try {
            value = Double.parseDouble(label);
        } catch (final NumberFormatException e) {
            throw rows.labelProblem(i, "target '" + label + "' is not a number (task=regression)");
        }
        if (!Double.isFinite(value)) {
            throw rows.labelProblem(i, "target '" + label + "' is not a finite number");
        }
        return (float) value;
    }

    private static double[] means(final RawRows rows) {
        final double[] mean = new double[rows.features()];
        for (int i = 0; i < rows.size(); i++) {
            for (int j = 0; j < mean.length; j++) {
                mean[j] += rows.value(i, j);
            }
        }
        for (int j = 0; j < mean.length; j++) {
            mean[j] /= Math.max(1, rows.size());
        }
        return mean;
    }

    /** The population standard deviation of each feature, 1 where it is 0 (a constant feature is only centred). */
    private static double[] spreads(final RawRows rows, final double[] mean) {
        final double[] spread = new double[rows.features()];
        for (int i = 0; i < rows.size(); i++) {
            for (int j = 0; j < spread.length; j++) {
                final double d = rows.value(i, j) - mean[j];
                spread[j] += d * d;
            }
        }
        for (int j = 0; j < spread.length; j++) {
            final double sd = Math.sqrt(spread[j] / Math.max(1, rows.size()));
            spread[j] = sd > 0 ? sd : 1;
        }
        return spread;
    }

    private static String abbreviated(final List<String> names) {
        return names.size() <= 20 ? names.toString() : names.subList(0, 20) + " and " + (names.size() - 20) + " more";
    }
}
