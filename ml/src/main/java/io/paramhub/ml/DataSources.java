package io.paramhub.ml;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Turns a data spec string, as given on a command line or in a job, into data:
 * <ul>
 *   <li>{@code fashion-mnist} (from {@link FashionMnist#load()}) or {@code fashion-mnist:/some/dir};</li>
 *   <li>{@code linear} or {@code linear:n=4096,d=16,noise=0.1,seed=7} (every key optional, those are
 *       the defaults): a {@link LinearProblem}.</li>
 * </ul>
 */
public final class DataSources {

    /** The forms {@link #load} accepts, for messages. */
    public static final String FORMS =
            "fashion-mnist, fashion-mnist:<dir>, linear, linear:n=4096,d=16,noise=0.1,seed=7";

    public static final String FASHION_MNIST = "fashion-mnist";
    private static final String LINEAR = "linear";

    private DataSources() {}

    /**
     * The training and test sets a spec names.
     *
     * @throws IllegalArgumentException for a spec of none of the {@link #FORMS}
     * @throws DatasetUnavailableException if Fashion-MNIST is asked for and not installed
     */
    public static TrainTest load(final String spec) {
        final String trimmed = spec == null ? "" : spec.trim();
        if (kindOf(trimmed).equals(FASHION_MNIST)) {
            final String dir = argumentOf(trimmed);
            return dir.isEmpty() ? FashionMnist.load() : FashionMnist.load(Path.of(dir));
        }
        return linearProblem(trimmed).data();
    }

    /**
     * The linear problem a {@code linear[:key=value,...]} spec names, with its optimum.
     *
     * @throws IllegalArgumentException for any other spec, an unknown key or a malformed value
     */
    public static LinearProblem linearProblem(final String spec) {
        final LinearShape shape = linearShape(spec);
        return LinearProblem.generate(shape.samples(), shape.features(), shape.noise(), shape.seed());
    }

    /** What a {@code linear[:key=value,...]} spec asks for, read without generating anything. */
    public record LinearShape(int samples, int features, double noise, long seed) {}

    /**
     * The shape a {@code linear[:key=value,...]} spec names, without generating the data.
     *
     * @throws IllegalArgumentException for any other spec, an unknown key or a malformed value
     */
    public static LinearShape linearShape(final String spec) {
        final String trimmed = spec == null ? "" : spec.trim();
        if (!kindOf(trimmed).equals(LINEAR)) {
            throw new IllegalArgumentException("unknown data spec '" + spec + "', expected one of: " + FORMS);
        }
        int samples = 4096;
        int features = 16;
        double noise = 0.1;
        long seed = 7;
        final String arguments = argumentOf(trimmed);
        for (final String pair : arguments.isEmpty() ? new String[0] : arguments.split(",")) {
            final String[] keyValue = pair.split("=", 2);
            if (keyValue.length != 2) {
                throw new IllegalArgumentException("data spec '" + spec + "': expected key=value, got '" + pair + "'");
            }
            final String key = keyValue[0].trim().toLowerCase(Locale.ROOT);
            final String value = keyValue[1].trim();
            try {
                switch (key) {
                    case "n" -> samples = Integer.parseInt(value);
                    case "d" -> features = Integer.parseInt(value);
                    case "noise" -> noise = Double.parseDouble(value);
                    case "seed" -> seed = Long.parseLong(value);
                    default ->
                        throw new IllegalArgumentException(
                                "data spec '" + spec + "': unknown key '" + key + "', known keys: n, d, noise, seed");
                }
            } catch (final NumberFormatException e) {
                throw new IllegalArgumentException(
                        "data spec '" + spec + "': bad value for " + key + ": '" + value + "'", e);
            }
        }
        return new LinearShape(samples, features, noise, seed);
    }

    /** Whether {@code spec} names Fashion-MNIST, with or without a directory. */
    public static boolean isFashionMnist(final String spec) {
        return kindOf(spec == null ? "" : spec.trim()).equals(FASHION_MNIST);
    }

    /** The directory a {@code fashion-mnist:<dir>} spec names, or empty for plain {@code fashion-mnist}. */
    public static String fashionMnistDir(final String spec) {
        return argumentOf(spec == null ? "" : spec.trim());
    }

    private static String kindOf(final String spec) {
        final int colon = spec.indexOf(':');
        return (colon < 0 ? spec : spec.substring(0, colon)).trim().toLowerCase(Locale.ROOT);
    }

    private static String argumentOf(final String spec) {
        final int colon = spec.indexOf(':');
        return colon < 0 ? "" : spec.substring(colon + 1).trim();
    }
}
