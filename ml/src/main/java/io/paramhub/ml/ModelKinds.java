package io.paramhub.ml;

import java.util.ArrayList;
import java.util.List;

/** Parses the optional architecture suffix of a model kind, as in {@code mlp:512,256}. */
final class ModelKinds {

    private ModelKinds() {
    }

    /** The kind without its suffix: {@code mlp} for {@code mlp:512,256}. */
    static String base(final String kind) {
        final int colon = kind.indexOf(':');
        return colon < 0 ? kind : kind.substring(0, colon);
    }

    /**
     * The comma-separated whole numbers after the colon ({@code mlp:} gives none), or {@code defaults}
     * when there is no colon.
     */
    static List<Integer> numbers(final String kind, final List<Integer> defaults) {
        final int colon = kind.indexOf(':');
        if (colon < 0) {
            return defaults;
        }
        final List<Integer> numbers = new ArrayList<>();
        final String suffix = kind.substring(colon + 1).trim();
        if (suffix.isEmpty()) {
            return numbers;
        }
        for (final String part : suffix.split(",", -1)) {
            try {
                numbers.add(Integer.parseInt(part.trim()));
            } catch (final NumberFormatException e) {
                throw new IllegalArgumentException("model kind '" + kind + "': '" + part
                        + "' is not a whole number", e);
            }
        }
        return numbers;
    }
}
