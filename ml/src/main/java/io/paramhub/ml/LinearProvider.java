package io.paramhub.ml;

import java.util.List;
import java.util.Set;

/**
 * {@code linear} or {@code linear:n=4096,d=16,noise=0.1,seed=7} (every key optional, those are the defaults): a
 * generated {@link LinearProblem}, at most {@link #MAX_VALUES} values (n x d), since every worker generates it.
 */
final class LinearProvider implements DatasetProvider {

    /** Samples x features a generated linear problem may have: 2^26 floats, 256 MiB. */
    static final long MAX_VALUES = 1L << 26;

    static final String KIND = "linear";

    private static final Set<String> KEYS = Set.of("n", "d", "noise", "seed");

    /** What a {@code linear[:key=value,...]} spec asks for, read without generating anything. */
    record Shape(int samples, int features, double noise, long seed) {}

    @Override
    public Set<String> kinds() {
        return Set.of(KIND);
    }

    @Override
    public List<String> forms() {
        return List.of("linear", "linear:n=4096,d=16,noise=0.1,seed=7");
    }

    @Override
    public void check(final DataSpec spec) {
        final Shape shape = shape(spec);
        if (shape.samples() < 2 || shape.features() < 1) {
            throw new IllegalArgumentException("dataset '" + spec + "' needs n >= 2 and d >= 1");
        }
        if ((long) shape.samples() * shape.features() > MAX_VALUES) {
            throw new IllegalArgumentException("dataset '" + spec + "' has n x d = "
                    + (long) shape.samples() * shape.features() + " values, more than the " + MAX_VALUES + " allowed");
        }
    }

    @Override
    public TrainTest load(final DataSpec spec) {
        return problem(spec).data();
    }

    /** The problem {@code spec} names, with its optimum. */
    static LinearProblem problem(final DataSpec spec) {
        final Shape shape = shape(spec);
        return LinearProblem.generate(shape.samples(), shape.features(), shape.noise(), shape.seed());
    }

    /**
     * The shape {@code spec} names.
     *
     * @throws IllegalArgumentException for another kind, a positional argument, an unknown key or a malformed value
     */
    static Shape shape(final DataSpec spec) {
        if (!spec.kind().equals(KIND)) {
            throw new IllegalArgumentException("unknown data spec '" + spec + "', expected one of: "
                    + String.join(", ", new LinearProvider().forms()));
        }
        final DataOptions options = spec.options(KEYS);
        if (!spec.positional().isEmpty()) {
            throw options.problem(
                    "expected key=value, got '" + spec.positional().get(0) + "'");
        }
        return new Shape(
                options.intValue("n", 4096),
                options.intValue("d", 16),
                options.doubleValue("noise", 0.1),
                options.longValue("seed", 7));
    }
}
