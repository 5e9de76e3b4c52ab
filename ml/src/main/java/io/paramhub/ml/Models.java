package io.paramhub.ml;

import java.util.List;
import java.util.Locale;

/** Creates models by the kind name a job spec carries. */
public final class Models {

    private static final List<String> KINDS = List.of(LinearRegression.KIND, SoftmaxRegression.KIND);

    private Models() {
    }

    /** The kinds {@link #create} knows. */
    public static List<String> kinds() {
        return KINDS;
    }

    /**
     * A model of the given kind and shape.
     *
     * @param kind {@code "linear"} (outputs must be 1) or {@code "softmax"} (outputs = classes)
     * @throws IllegalArgumentException for an unknown kind or a shape the kind cannot have
     */
    public static Model create(final String kind, final int inputs, final int outputs) {
        final String normalized = kind == null ? "" : kind.trim().toLowerCase(Locale.ROOT);
        return switch (normalized) {
            case LinearRegression.KIND -> linear(inputs, outputs);
            case SoftmaxRegression.KIND -> new SoftmaxRegression(inputs, outputs);
            default -> throw new IllegalArgumentException("unknown model kind '" + kind + "', known kinds: " + KINDS);
        };
    }

    private static Model linear(final int inputs, final int outputs) {
        if (outputs != 1) {
            throw new IllegalArgumentException("linear model has 1 output, got " + outputs);
        }
        return new LinearRegression(inputs);
    }
}
