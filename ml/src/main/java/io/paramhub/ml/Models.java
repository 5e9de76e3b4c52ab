package io.paramhub.ml;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Creates models by the kind name a job spec carries: the single factory that workers, the
 * aggregator and evaluators share, so that they agree on the parameter layout.
 */
public final class Models {

    private static final List<String> KINDS =
            List.of(LinearRegression.KIND, SoftmaxRegression.KIND, Mlp.KIND, ConvNet.KIND);

    private Models() {}

    /**
     * The built-in kinds; {@link #create} also knows those of every {@link ModelProvider} on the classpath or in a
     * plugin jar ({@link Plugins}).
     */
    public static List<String> kinds() {
        return KINDS;
    }

    /**
     * A model of the given kind shaped for {@code train}: its features as inputs, its classes (or 1
     * for a regression data set) as outputs.
     *
     * @throws IllegalArgumentException as {@link #create}
     */
    public static Model forData(final String kind, final Dataset train) {
        return create(kind, train.features(), train.isClassification() ? train.classes() : 1);
    }

    /**
     * A model of the given kind and shape.
     *
     * @param kind {@code "linear"} (outputs must be 1), {@code "softmax"}, {@code "mlp"} or
     *     {@code "mlp:H1,H2,...[,dropout=R]"} (hidden widths, dropout after each), {@code "cnn"} or
     *     {@code "cnn:K,C1,C2,H[,PAD][,dropout=R][,flip]"} (kernel, channels, hidden units, padding,
     *     dropout of the hidden layer, random horizontal flips in training; square images); the
     *     classifiers have outputs = classes
     * @throws IllegalArgumentException for an unknown kind or a shape the kind cannot have
     */
    public static Model create(final String kind, final int inputs, final int outputs) {
        final String normalized = kind == null ? "" : kind.trim().toLowerCase(Locale.ROOT);
        if (normalized.startsWith(SoftmaxRegression.KIND + ":") || normalized.startsWith(LinearRegression.KIND + ":")) {
            throw new IllegalArgumentException("model kind '" + kind + "' takes no architecture suffix");
        }
        return switch (ModelKinds.base(normalized)) {
            case LinearRegression.KIND -> linear(normalized, inputs, outputs);
            case SoftmaxRegression.KIND -> new SoftmaxRegression(inputs, outputs);
            case Mlp.KIND -> mlp(normalized, inputs, outputs);
            case ConvNet.KIND -> new ConvNet(inputs, ConvShape.of(normalized), outputs);
            default -> provided(normalized, inputs, outputs);
        };
    }

    /** A model from a {@link ModelProvider} on the classpath or in a plugin jar. */
    private static Model provided(final String kind, final int inputs, final int outputs) {
        final String base = ModelKinds.base(kind);
        final List<String> known = new ArrayList<>(KINDS);
        for (final ModelProvider provider : ServiceLoader.load(ModelProvider.class, Plugins.classLoader())) {
            if (provider.kinds().contains(base)) {
                return provider.create(kind, inputs, outputs);
            }
            known.addAll(provider.kinds());
        }
        throw new IllegalArgumentException("unknown model kind '" + kind + "', known kinds: " + known);
    }

    private static Model mlp(final String kind, final int inputs, final int outputs) {
        ModelKinds.options(kind, Set.of(ModelKinds.DROPOUT));
        return new Mlp(
                inputs,
                ModelKinds.numbers(kind, Mlp.DEFAULT_HIDDEN),
                outputs,
                ModelKinds.dropout(kind, Mlp.DEFAULT_DROPOUT));
    }

    private static Model linear(final String kind, final int inputs, final int outputs) {
        if (outputs != 1) {
            throw new IllegalArgumentException(kind + " model has 1 output, got " + outputs);
        }
        return new LinearRegression(inputs);
    }
}
