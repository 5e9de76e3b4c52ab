package io.paramhub.ml;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code csv:PATH[,label=NAME|INDEX][,test=PATH|holdout=F][,seed=N][,header=true|false][,sep=C]
 * [,task=classification|regression][,standardize=true|false]}: a CSV file, one sample a row (docs/data.md).
 * The label is the column named (or at the 0-based index; negative from the end; default: the last); every
 * other column is a numeric feature. Labels are classes ({@link ClassLabels}) unless {@code task=regression};
 * the test set is the file {@code test=} names (same columns) or a {@link Holdout} of {@code holdout=F}
 * (default 0.2) with {@code seed=N} (default 0); features are standardised as {@link Tables} says unless
 * {@code standardize=false}.
 */
public final class CsvProvider implements DatasetProvider {

    /** The kind, as in {@code csv:wine.csv}. */
    public static final String KIND = "csv";

    private static final Set<String> KEYS = keys();

    @Override
    public Set<String> kinds() {
        return Set.of(KIND);
    }

    @Override
    public List<String> forms() {
        return List.of("csv:<path>[,label=<name|index>][,test=<path>|holdout=<fraction>][,seed=<n>]"
                + "[,header=true|false][,sep=<char>|tab][,task=classification|regression][,standardize=true|false]");
    }

    @Override
    public Set<String> pathKeys() {
        return Set.of("test");
    }

    @Override
    public void check(final DataSpec spec) {
        final DataOptions options = spec.options(KEYS);
        path(spec, options);
        format(options);
        Tables.Options.of(options, "");
    }

    @Override
    public TrainTest load(final DataSpec spec) {
        final DataOptions options = spec.options(KEYS);
        final Path file = path(spec, options);
        final CsvReader.Format format = format(options);
        final String label = options.text("label", null);
        final CsvReader.Table train = new CsvReader(file, format).read(label, null);
        final CsvReader.Table test = options.has("test")
                ? new CsvReader(Path.of(options.text("test", null)), format).read(label, train.columns())
                : null;
        return Tables.build(train.rows(), test == null ? null : test.rows(), Tables.Options.of(options, stem(file)));
    }

    /** The file's name without its extensions ({@code wine} for {@code /data/wine.csv.gz}). */
    static String stem(final Path file) {
        final String name =
                file.getFileName() == null ? "data" : file.getFileName().toString();
        final int dot = name.indexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    private static Path path(final DataSpec spec, final DataOptions options) {
        final List<String> positional = spec.positional();
        if (positional.size() != 1) {
            throw options.problem("expected one file, as in csv:data.csv, got " + positional.size());
        }
        return Path.of(positional.get(0));
    }

    private static CsvReader.Format format(final DataOptions options) {
        final String sep = options.text("sep", ",");
        final char separator = switch (sep.toLowerCase(Locale.ROOT)) {
            case "tab", "\\t" -> '\t';
            case "space" -> ' ';
            default -> {
                if (sep.length() != 1 || sep.charAt(0) == '"') {
                    throw options.problem("sep must be one character (not a quote), tab or space, not '" + sep + "'");
                }
                yield sep.charAt(0);
            }
        };
        return new CsvReader.Format(separator, options.bool("header", true));
    }

    private static Set<String> keys() {
        final Set<String> keys = new HashSet<>(Tables.KEYS);
        keys.add("header");
        keys.add("sep");
        return Set.copyOf(keys);
    }
}
