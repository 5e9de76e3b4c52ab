package io.paramhub.ml;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code key=value} options of a {@link DataSpec}, checked against the keys a provider knows, with typed
 * getters whose errors name the spec, the key and the value.
 */
public final class DataOptions {

    private final String spec;
    private final Map<String, String> values;

    private DataOptions(final String spec, final Map<String, String> values) {
        this.spec = spec;
        this.values = values;
    }

    static DataOptions of(final DataSpec spec, final Set<String> known) {
        final Map<String, String> values = new LinkedHashMap<>();
        for (final String argument : spec.arguments()) {
            if (!DataSpec.isOption(argument)) {
                continue;
            }
            final int equals = argument.indexOf('=');
            final String key = argument.substring(0, equals).trim().toLowerCase(Locale.ROOT);
            if (!known.contains(key)) {
                throw new IllegalArgumentException("data spec '" + spec + "': unknown key '" + key + "', known keys: "
                        + String.join(", ", new TreeSet<>(known)));
            }
            if (values.put(key, argument.substring(equals + 1).trim()) != null) {
                throw new IllegalArgumentException("data spec '" + spec + "': key '" + key + "' given twice");
            }
        }
        return new DataOptions(spec.toString(), values);
    }

    /** Whether {@code key} is given. */
    public boolean has(final String key) {
        return values.containsKey(key);
    }

    /** The value of {@code key}, or {@code otherwise}. */
    public String text(final String key, final String otherwise) {
        return values.getOrDefault(key, otherwise);
    }

    /** The value of {@code key} as an int, or {@code otherwise}. */
    public int intValue(final String key, final int otherwise) {
        final String value = values.get(key);
        try {
            return value == null ? otherwise : Integer.parseInt(value);
        } catch (final NumberFormatException e) {
            throw bad(key, value, e);
        }
    }

    /** The value of {@code key} as a long, or {@code otherwise}. */
    public long longValue(final String key, final long otherwise) {
        final String value = values.get(key);
        try {
            return value == null ? otherwise : Long.parseLong(value);
        } catch (final NumberFormatException e) {
            throw bad(key, value, e);
        }
    }

    /** The value of {@code key} as a double, or {@code otherwise}. */
    public double doubleValue(final String key, final double otherwise) {
        final String value = values.get(key);
        try {
            return value == null ? otherwise : Double.parseDouble(value);
        } catch (final NumberFormatException e) {
            throw bad(key, value, e);
        }
    }

    /** The value of {@code key}, {@code true} or {@code false} in any case, or {@code otherwise}. */
    public boolean bool(final String key, final boolean otherwise) {
        final String value = values.get(key);
        if (value == null) {
            return otherwise;
        }
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new IllegalArgumentException(
                "data spec '" + spec + "': bad value for " + key + ": '" + value + "', expected true or false");
    }

    /** The value of {@code key}, lower-cased, which must be one of {@code choices}; or {@code otherwise}. */
    public String choice(final String key, final Set<String> choices, final String otherwise) {
        final String value = values.get(key);
        if (value == null) {
            return otherwise;
        }
        final String lower = value.toLowerCase(Locale.ROOT);
        if (!choices.contains(lower)) {
            throw new IllegalArgumentException("data spec '" + spec + "': bad value for " + key + ": '" + value
                    + "', expected one of " + String.join(", ", new TreeSet<>(choices)));
        }
        return lower;
    }

    /** An error naming the spec and {@code problem}. */
    public IllegalArgumentException problem(final String problem) {
        return new IllegalArgumentException("data spec '" + spec + "': " + problem);
    }

    private IllegalArgumentException bad(final String key, final String value, final NumberFormatException cause) {
        return new IllegalArgumentException(
                "data spec '" + spec + "': bad value for " + key + ": '" + value + "'", cause);
    }
}
