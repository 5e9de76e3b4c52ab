package io.paramhub.ml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A topic-mode job's data spec, {@code topic:NAME,features=F[+F...][,label=L][,labels=A|B|...]
 * [,task=classification|regression][,max-examples=N][,ends=O0|O1|...][,window=N][,linger-ms=N]}: the data topic
 * whose Avro records (the producer's own schema, from the registry) are the training examples, the fields of their
 * features and label, the class names of text or enum labels in class order (numeric labels are class indices),
 * where training stops (after {@code max-examples} examples in all, or at the end offsets {@code ends} of each
 * partition in partition order, fixed when the job was submitted; neither: never), the prequential window and how
 * long a clock waits for more examples once it has one. Reads no topic.
 */
public record TopicSpec(
        String topic,
        List<String> features,
        String label,
        List<String> labels,
        boolean regression,
        long maxExamples,
        List<Long> ends,
        int window,
        int lingerMs) {

    /** The kind of a topic data spec. */
    public static final String KIND = "topic";
    /** Examples per prequential window unless the spec says otherwise. */
    public static final int DEFAULT_WINDOW = 5_000;
    /** How long a clock holding at least one example waits for the rest of its share, unless the spec says otherwise. */
    public static final int DEFAULT_LINGER_MS = 50;

    static final Set<String> KEYS =
            Set.of("features", "label", "labels", "task", "max-examples", "ends", "window", "linger-ms");
    private static final int MAX_WINDOW = 10_000_000;
    private static final int MAX_LINGER_MS = 60_000;

    /** Copies the lists. */
    public TopicSpec {
        features = List.copyOf(features);
        labels = List.copyOf(labels);
        ends = List.copyOf(ends);
    }

    /** Whether {@code dataset} is a topic data spec. */
    public static boolean isTopic(final String dataset) {
        return dataset != null && DataSpec.parse(dataset).kind().equals(KIND);
    }

    /**
     * The topic spec {@code dataset} names.
     *
     * @throws IllegalArgumentException for another kind, or a malformed spec, naming what is wrong
     */
    public static TopicSpec parse(final String dataset) {
        final DataSpec spec = DataSpec.parse(dataset);
        if (!spec.kind().equals(KIND)) {
            throw new IllegalArgumentException("data spec '" + dataset + "' is not a topic: " + KIND + ":NAME,...");
        }
        return of(spec);
    }

    static TopicSpec of(final DataSpec spec) {
        final DataOptions options = spec.options(KEYS);
        if (spec.positional().size() != 1) {
            throw options.problem("expected one topic, as in topic:examples,features=x, got "
                    + spec.positional().size());
        }
        final String topic = spec.positional().get(0);
        if (!topic.matches("[a-zA-Z0-9._-]{1,249}")) {
            throw options.problem("'" + topic + "' is not a Kafka topic name (letters, digits, . _ -; at most 249)");
        }
        final String features = options.text("features", "");
        final List<String> fields =
                Arrays.stream(features.split("\\+", -1)).map(String::trim).toList();
        if (features.isBlank() || fields.stream().anyMatch(String::isEmpty)) {
            throw options.problem("features= must name the field (or the fields, joined with +) of the features");
        }
        final boolean regression = options.choice("task", Set.of("classification", "regression"), "classification")
                .equals("regression");
        final List<String> labels = list(options.text("labels", ""));
        if (regression && !labels.isEmpty()) {
            throw options.problem("labels= names classes; a regression has none");
        }
        if (!labels.isEmpty() && (labels.size() < 2 || Set.copyOf(labels).size() != labels.size())) {
            throw options.problem("labels= must name at least 2 distinct classes, got " + labels);
        }
        final long maxExamples = options.longValue("max-examples", -1);
        if (options.has("max-examples") && maxExamples < 1) {
            throw options.problem("max-examples must be at least 1, got " + maxExamples);
        }
        final List<Long> ends = ends(options);
        final int window = options.intValue("window", DEFAULT_WINDOW);
        final int lingerMs = options.intValue("linger-ms", DEFAULT_LINGER_MS);
        if (window < 1 || window > MAX_WINDOW) {
            throw options.problem("window must be in [1, " + MAX_WINDOW + "], got " + window);
        }
        if (lingerMs < 0 || lingerMs > MAX_LINGER_MS) {
            throw options.problem("linger-ms must be in [0, " + MAX_LINGER_MS + "], got " + lingerMs);
        }
        return new TopicSpec(
                topic, fields, options.text("label", "label"), labels, regression, maxExamples, ends, window, lingerMs);
    }

    private static List<Long> ends(final DataOptions options) {
        final List<Long> ends = new ArrayList<>();
        for (final String end : list(options.text("ends", ""))) {
            final long offset;
            try {
                offset = Long.parseLong(end);
            } catch (final NumberFormatException e) {
                throw options.problem("ends= must be end offsets joined with |, got '" + end + "'");
            }
            if (offset < 0) {
                throw options.problem("ends= offsets must not be negative, got " + end);
            }
            ends.add(offset);
        }
        return ends;
    }

    private static List<String> list(final String joined) {
        return joined.isBlank()
                ? List.of()
                : Arrays.stream(joined.split("\\|", -1)).map(String::trim).toList();
    }

    /** Whether training stops at all: after {@code max-examples}, or at the end offsets. */
    public boolean bounded() {
        return maxExamples > 0 || !ends.isEmpty();
    }

    /** The spec as a job carries it. */
    @Override
    public String toString() {
        final StringBuilder text = new StringBuilder(KIND).append(':').append(topic);
        text.append(",features=")
                .append(String.join("+", features))
                .append(",label=")
                .append(label);
        if (!labels.isEmpty()) {
            text.append(",labels=").append(String.join("|", labels));
        }
        if (regression) {
            text.append(",task=regression");
        }
        if (maxExamples > 0) {
            text.append(",max-examples=").append(maxExamples);
        }
        if (!ends.isEmpty()) {
            text.append(",ends=")
                    .append(String.join("|", ends.stream().map(String::valueOf).toList()));
        }
        if (window != DEFAULT_WINDOW) {
            text.append(",window=").append(window);
        }
        if (lingerMs != DEFAULT_LINGER_MS) {
            text.append(",linger-ms=").append(lingerMs);
        }
        return text.toString();
    }

    /** This spec ending at {@code endOffsets}, one per partition in partition order. */
    public TopicSpec withEnds(final List<Long> endOffsets) {
        return new TopicSpec(topic, features, label, labels, regression, maxExamples, endOffsets, window, lingerMs);
    }

    /** This spec with the classes {@code names} of text labels, in class order. */
    public TopicSpec withLabels(final List<String> names) {
        return new TopicSpec(topic, features, label, names, regression, maxExamples, ends, window, lingerMs);
    }
}
