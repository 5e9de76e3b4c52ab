package io.paramhub.ml;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses the optional architecture suffix of a model kind, as in {@code mlp:512,256}: whole numbers,
 * then options, each a word with or without {@code =value}: {@code mlp:512,256,dropout=0.2},
 * {@code cnn:3,32,64,128,1,dropout=0.5,flip}.
 */
final class ModelKinds {

    static final String DROPOUT = "dropout";
    static final String FLIP = "flip";

    private ModelKinds() {}

    /** The kind without its suffix: {@code mlp} for {@code mlp:512,256}. */
    static String base(final String kind) {
        final int colon = kind.indexOf(':');
        return colon < 0 ? kind : kind.substring(0, colon);
    }

    /**
     * The comma-separated whole numbers after the colon ({@code mlp:} gives none), or {@code defaults}
     * when there is no colon.
     *
     * @throws IllegalArgumentException for an item that is neither a whole number nor an option, or a
     *     number after an option
     */
    static List<Integer> numbers(final String kind, final List<Integer> defaults) {
        final int colon = kind.indexOf(':');
        if (colon < 0) {
            return defaults;
        }
        final List<Integer> numbers = new ArrayList<>();
        boolean options = false;
        for (final String part : items(kind)) {
            if (isOption(part)) {
                options = true;
                continue;
            }
            if (options) {
                throw new IllegalArgumentException(
                        "model kind '" + kind + "': options such as " + DROPOUT + "= must come after the numbers");
            }
            try {
                numbers.add(Integer.parseInt(part));
            } catch (final NumberFormatException e) {
                throw new IllegalArgumentException(
                        "model kind '" + kind + "': '" + part + "' is not a whole number", e);
            }
        }
        return numbers;
    }

    /**
     * The options after the numbers, checked against {@code known}: the names, with their values as
     * in {@code dropout=0.5}.
     *
     * @throws IllegalArgumentException for an unknown option
     */
    static List<String> options(final String kind, final Set<String> known) {
        final List<String> options = new ArrayList<>();
        for (final String part : items(kind)) {
            if (isOption(part)) {
                final String name = part.split("=", 2)[0];
                if (!known.contains(name)) {
                    throw new IllegalArgumentException(
                            "model kind '" + kind + "': unknown option '" + name + "', known: " + known);
                }
                options.add(part);
            }
        }
        return options;
    }

    /** The rate of the {@code dropout=R} option, 0 without one; {@code otherwise} when the kind has no suffix. */
    static double dropout(final String kind, final double otherwise) {
        if (kind.indexOf(':') < 0) {
            return otherwise;
        }
        for (final String part : items(kind)) {
            if (part.startsWith(DROPOUT + "=")) {
                final String value = part.substring(DROPOUT.length() + 1);
                try {
                    return Double.parseDouble(value);
                } catch (final NumberFormatException e) {
                    throw new IllegalArgumentException(
                            "model kind '" + kind + "': dropout '" + value + "' is not a number", e);
                }
            }
        }
        return 0;
    }

    /** Whether the option {@code name} (a word without a value) is given; {@code otherwise} without a suffix. */
    static boolean flag(final String kind, final String name, final boolean otherwise) {
        if (kind.indexOf(':') < 0) {
            return otherwise;
        }
        return items(kind).contains(name);
    }

    /** {@code ",dropout=R"}, or empty for a rate of 0. */
    static String dropoutSuffix(final double rate) {
        return rate == 0 ? "" : "," + DROPOUT + "=" + rate;
    }

    private static List<String> items(final String kind) {
        final int colon = kind.indexOf(':');
        final List<String> items = new ArrayList<>();
        final String suffix = colon < 0 ? "" : kind.substring(colon + 1).trim();
        if (suffix.isEmpty()) {
            return items;
        }
        for (final String part : suffix.split(",", -1)) {
            items.add(part.trim());
        }
        return items;
    }

    private static boolean isOption(final String part) {
        return !part.isEmpty() && Character.isLetter(part.charAt(0));
    }
}
