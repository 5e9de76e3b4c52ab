package io.paramhub.ml;

import java.util.List;
import java.util.Set;

/**
 * The architecture of a {@link ConvNet}: kernel side, channels of the first and second convolution, hidden units,
 * zero padding of both convolutions, the dropout rate of the hidden layer, and whether training
 * mirrors half of the images left to right (which half: drawn from seed, clock and sample).
 */
public record ConvShape(int kernel, int channels1, int channels2, int hidden, int pad, double dropout, boolean flip) {

    /** The shape of {@code cnn} without a suffix. */
    public static final ConvShape DEFAULT = new ConvShape(3, 32, 64, 128, 1, 0.5, false);

    /** Parses the suffix of {@code cnn:K,C1,C2,H[,PAD][,dropout=R][,flip]}; {@code cnn} alone is {@link #DEFAULT}. */
    static ConvShape of(final String kind) {
        if (kind.indexOf(':') < 0) {
            return DEFAULT;
        }
        ModelKinds.options(kind, Set.of(ModelKinds.DROPOUT, ModelKinds.FLIP));
        final List<Integer> numbers = ModelKinds.numbers(kind, List.of());
        if (numbers.size() != 4 && numbers.size() != 5) {
            throw new IllegalArgumentException(
                    "model kind '" + kind + "': cnn takes K,C1,C2,H[,PAD][,dropout=R]" + "[,flip]");
        }
        return new ConvShape(
                numbers.get(0),
                numbers.get(1),
                numbers.get(2),
                numbers.get(3),
                numbers.size() > 4 ? numbers.get(4) : 0,
                ModelKinds.dropout(kind, 0),
                ModelKinds.flag(kind, ModelKinds.FLIP, false));
    }

    /** The suffix {@link #of(String)} reads back. */
    String suffix() {
        final String base = kernel + "," + channels1 + "," + channels2 + "," + hidden;
        return (pad != 0 ? base + "," + pad : base)
                + ModelKinds.dropoutSuffix(dropout)
                + (flip ? "," + ModelKinds.FLIP : "");
    }

    /** A shape of {@code kernel, channels1, channels2, hidden[, pad]}, without dropout or flips. */
    static ConvShape of(final List<Integer> numbers) {
        if (numbers.size() != 4 && numbers.size() != 5) {
            throw new IllegalArgumentException("cnn shape is kernel,channels1,channels2,hidden[,pad], got " + numbers);
        }
        return new ConvShape(
                numbers.get(0),
                numbers.get(1),
                numbers.get(2),
                numbers.get(3),
                numbers.size() == 5 ? numbers.get(4) : 0,
                0,
                false);
    }
}
