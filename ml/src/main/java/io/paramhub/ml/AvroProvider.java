package io.paramhub.ml;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code avro:PATH,features=FIELD|F1+F2+...[,label=FIELD][,test=PATH|holdout=F][,seed=N]
 * [,task=classification|regression][,standardize=true|false]}: an Avro container file of records, the Kafka
 * ecosystem's own file format (docs/data.md). The features are one field ({@code array<float|double>}, or
 * {@code bytes} of float32 little-endian) or several numeric fields joined with {@code +}; the label is the field
 * {@code label=} names (default {@code label}). Labels, test set and standardisation are as for
 * {@link CsvProvider} ({@link Tables}); a test file must have the same fields.
 */
public final class AvroProvider implements DatasetProvider {

    /** The kind, as in {@code avro:data.avro,features=pixels}. */
    public static final String KIND = "avro";

    private static final Set<String> KEYS = keys();

    @Override
    public Set<String> kinds() {
        return Set.of(KIND);
    }

    @Override
    public List<String> forms() {
        return List.of(
                "avro:<path>,features=<field>|<field>+<field>+...[,label=<field>][,test=<path>|holdout=<fraction>]"
                        + "[,seed=<n>][,task=classification|regression][,standardize=true|false]");
    }

    @Override
    public Set<String> pathKeys() {
        return Set.of("test");
    }

    @Override
    public void check(final DataSpec spec) {
        final DataOptions options = spec.options(KEYS);
        path(spec, options);
        features(options);
        Tables.Options.of(options, "");
    }

    @Override
    public TrainTest load(final DataSpec spec) {
        final DataOptions options = spec.options(KEYS);
        final Path file = path(spec, options);
        final List<String> features = features(options);
        final String label = options.text("label", "label");
        final RawRows train = new AvroReader(file, features, label).read(0);
        final RawRows test = options.has("test")
                ? new AvroReader(Path.of(options.text("test", null)), features, label).read(train.features())
                : null;
        return Tables.build(train, test, Tables.Options.of(options, CsvProvider.stem(file)));
    }

    private static Path path(final DataSpec spec, final DataOptions options) {
        if (spec.positional().size() != 1) {
            throw options.problem("expected one file, as in avro:data.avro,features=x, got "
                    + spec.positional().size());
        }
        return Path.of(spec.positional().get(0));
    }

    private static List<String> features(final DataOptions options) {
        final String features = options.text("features", "");
        if (features.isBlank()) {
            throw options.problem("features= must name the field (or the fields, joined with +) of the features");
        }
        final List<String> fields =
                Arrays.stream(features.split("\\+", -1)).map(String::trim).toList();
        if (fields.stream().anyMatch(String::isEmpty)) {
            throw options.problem("features= has an empty field name: '" + features + "'");
        }
        return fields;
    }

    private static Set<String> keys() {
        final Set<String> keys = new HashSet<>(Tables.KEYS);
        keys.add("features");
        return Set.copyOf(keys);
    }
}
