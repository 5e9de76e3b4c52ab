package io.paramhub.ml;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * A data spec as a job's {@code dataset} carries it, {@code kind[:arguments]}, taken apart: the kind (lower-cased)
 * and its comma-separated arguments, each an option {@code key=value} (a key is a word of letters, digits, dashes
 * and underscores) or a positional argument. For every {@link DatasetProvider} the positional arguments and the
 * values of its {@link DatasetProvider#pathKeys()} are file paths, so a path cannot hold a comma.
 */
public record DataSpec(String kind, List<String> arguments) {

    private static final Pattern OPTION = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*=.*", Pattern.DOTALL);

    /** Checks that there is a kind and copies the arguments. */
    public DataSpec {
        if (kind == null || kind.isBlank()) {
            throw new IllegalArgumentException("a data spec needs a kind, as in csv:PATH");
        }
        arguments = List.copyOf(arguments);
    }

    /**
     * The parts of {@code text}: the kind before the first colon, then the arguments, trimmed.
     *
     * @throws IllegalArgumentException for a blank spec or an empty argument ({@code csv:a.csv,,label=y})
     */
    public static DataSpec parse(final String text) {
        final String trimmed = text == null ? "" : text.trim();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("the data spec is empty");
        }
        final int colon = trimmed.indexOf(':');
        final String kind =
                (colon < 0 ? trimmed : trimmed.substring(0, colon)).trim().toLowerCase(Locale.ROOT);
        final String rest = colon < 0 ? "" : trimmed.substring(colon + 1).trim();
        final List<String> arguments = new ArrayList<>();
        if (!rest.isEmpty()) {
            for (final String part : rest.split(",", -1)) {
                if (part.isBlank()) {
                    throw new IllegalArgumentException("data spec '" + trimmed + "' has an empty argument");
                }
                arguments.add(part.trim());
            }
        }
        return new DataSpec(kind, arguments);
    }

    /** Whether {@code argument} is an option {@code key=value} rather than a positional argument. */
    public static boolean isOption(final String argument) {
        return OPTION.matcher(argument).matches();
    }

    /** The positional arguments, in order. */
    public List<String> positional() {
        return arguments.stream().filter(argument -> !isOption(argument)).toList();
    }

    /**
     * The options, checked against {@code known}.
     *
     * @throws IllegalArgumentException for an unknown or repeated key
     */
    public DataOptions options(final Set<String> known) {
        return DataOptions.of(this, known);
    }

    /** This spec with {@code change} applied to every path: the positional arguments and the values of {@code pathKeys}. */
    public DataSpec mapPaths(final Set<String> pathKeys, final UnaryOperator<String> change) {
        final List<String> changed = new ArrayList<>();
        for (final String argument : arguments) {
            if (!isOption(argument)) {
                changed.add(change.apply(argument));
                continue;
            }
            final int equals = argument.indexOf('=');
            final String key = argument.substring(0, equals).trim().toLowerCase(Locale.ROOT);
            changed.add(
                    pathKeys.contains(key)
                            ? key + "="
                                    + change.apply(
                                            argument.substring(equals + 1).trim())
                            : argument);
        }
        return new DataSpec(kind, changed);
    }

    /** The paths this spec names: the positional arguments, then the values of {@code pathKeys}. */
    public List<String> paths(final Set<String> pathKeys) {
        final List<String> paths = new ArrayList<>();
        mapPaths(pathKeys, path -> {
            paths.add(path);
            return path;
        });
        return paths;
    }

    /** The spec as a job carries it: {@code kind} or {@code kind:a,b,key=value}. */
    @Override
    public String toString() {
        return arguments.isEmpty() ? kind : kind + ":" + String.join(",", arguments);
    }
}
