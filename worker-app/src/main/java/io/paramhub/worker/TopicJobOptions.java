package io.paramhub.worker;

import io.paramhub.launcher.SettingException;
import io.paramhub.ml.ExampleException;
import io.paramhub.ml.ExampleFields;
import io.paramhub.ml.ExampleLabels;
import io.paramhub.ml.TopicSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * The options of a job that trains online from a Kafka topic (a picocli mixin of {@code paramhub-submit}), and
 * the {@code topic:} data spec, inputs and outputs they come to once the submitter has probed the topic
 * ({@link #resolve}): what the user leaves out is learned from the topic's first records. Reads no topic itself.
 */
final class TopicJobOptions {

    private static final Pattern AVRO_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String DEFAULT_LABEL = "label";

    @Option(
            names = "--data-topic",
            paramLabel = "TOPIC",
            description = "Train online from this Kafka topic instead of a --dataset: its values are Avro records in "
                    + "the schema registry's wire format, each of its producer's own schema (docs/data.md, \"Training "
                    + "from a topic\"). Before submitting, up to the first " + TopicProbe.MAX_RECORDS + " records "
                    + "(for at most 10 s) are read to learn what the options below leave out. The topic must "
                    + "exist, with at least one partition a worker. The job makes one pass over what arrives (epochs 1; "
                    + "another --epochs is refused).")
    private String topic;

    @Option(
            names = "--features",
            paramLabel = "FIELD[+FIELD...]",
            description = "With --data-topic, required: the record field holding the features (array of "
                    + "float/double/int/long, or bytes of float32 little-endian), or numeric fields joined with +.")
    private String features;

    @Option(
            names = "--label",
            paramLabel = "FIELD",
            description = "With --data-topic: the record field holding the label (int, long, boolean, string, enum, "
                    + "float or double) (default: " + DEFAULT_LABEL + ").")
    private String label;

    @Option(
            names = "--task",
            paramLabel = "TASK",
            description = "With --data-topic: classification (each label a class) or regression (the label is the "
                    + "number to predict, 1 output) (default: classification).")
    private String task;

    @Option(
            names = "--classes",
            paramLabel = "N",
            description = "With --data-topic: the class count. Whole-number labels are class indices 0..N-1; text or "
                    + "enum labels need N to be their count. Default: learned from the labels of the records read: "
                    + "the largest whole-number label + 1, or the distinct texts in sorted order, or the enum's "
                    + "symbols in their order. Needed when no record can be read yet.")
    private Integer classes;

    @Option(
            names = "--inputs",
            paramLabel = "N",
            description = "With --data-topic: the feature count (default: that of the first record read that is an "
                    + "example; needed when no record can be read yet).")
    private Integer inputs;

    @Option(
            names = "--max-examples",
            paramLabel = "N",
            description = "With --data-topic: stop after N examples in all (bad examples not counted). Without it or "
                    + "--until-end the job trains until it is deleted.")
    private Long maxExamples;

    @Option(
            names = "--until-end",
            description = "With --data-topic: stop at the end of the topic as it is now: each partition's end offset "
                    + "(read_committed), read at submission, goes into the job.")
    private boolean untilEnd;

    @Option(
            names = "--window",
            paramLabel = "N",
            description = "With --data-topic: examples per prequential (test-then-train) window (default: "
                    + TopicSpec.DEFAULT_WINDOW + ").")
    private Integer window;

    @Option(
            names = "--linger-ms",
            paramLabel = "MS",
            description = "With --data-topic: how long a worker's clock holding at least one example waits for the "
                    + "rest of its share (default: " + TopicSpec.DEFAULT_LINGER_MS + ").")
    private Integer lingerMs;

    /**
     * A topic job resolved: its data spec, inputs, outputs, the examples it trains at most (-1 when it has no end),
     * and one line for each thing resolved, warnings last.
     */
    record Resolved(TopicSpec spec, int inputs, int outputs, long bound, List<String> report) {

        /** Copies the report. */
        Resolved {
            report = List.copyOf(report);
        }
    }

    /** Whether {@code --data-topic} was given. */
    boolean given() {
        return topic != null;
    }

    /** Fails naming the first of these options given without {@code --data-topic}. */
    void requireNoneWithoutTopic() {
        final Map<String, Object> options = new TreeMap<>();
        options.put("--features", features);
        options.put("--label", label);
        options.put("--task", task);
        options.put("--classes", classes);
        options.put("--inputs", inputs);
        options.put("--max-examples", maxExamples);
        options.put("--until-end", untilEnd ? Boolean.TRUE : null);
        options.put("--window", window);
        options.put("--linger-ms", lingerMs);
        options.forEach((option, value) -> {
            if (value != null) {
                throw new SettingException(option, option + " applies to a job from a topic: give --data-topic too");
            }
        });
    }

    /** The data topic. */
    String topic() {
        return topic;
    }

    /** How the topic's records are read: the fields {@code --features} and {@code --label} name. */
    ExampleFields fields() {
        requireName("--label", labelField());
        return new ExampleFields(featureFields(), labelField());
    }

    /** The fields {@code --features} names. */
    private List<String> featureFields() {
        SettingException.requireOption(features, "--features");
        final List<String> fields =
                Arrays.stream(features.split("\\+", -1)).map(String::trim).toList();
        for (final String field : fields) {
            requireName("--features", field);
        }
        return fields;
    }

    /**
     * The job these options describe for {@code workers} workers, given what {@code probe} saw of the topic.
     *
     * @throws SettingException when an option is wrong for the topic, or one is needed that was not given
     * @throws IllegalStateException when the topic does not exist, has fewer partitions than workers, or none of
     *     its first records can be read
     */
    Resolved resolve(final TopicProbe.Result probe, final int workers) {
        final ExampleFields fields = fields();
        if (!probe.exists()) {
            throw new IllegalStateException("data topic " + topic + " does not exist: create it, with at least "
                    + workers + " partitions (one a worker), before submitting the job");
        }
        if (probe.partitions() < workers) {
            throw new IllegalStateException("data topic " + topic + " has " + probe.partitions() + " partitions; "
                    + "each of the job's " + workers + " workers needs one: give --workers " + probe.partitions()
                    + " or fewer, or add partitions");
        }
        final TopicSample.Seen seen = probe.seen();
        if (seen.records() > 0 && seen.decoded() == 0) {
            throw new IllegalStateException("none of the first " + seen.records() + " records of data topic "
                    + topic + " is an example with features " + features + " and label " + fields.labelField()
                    + "; the first: " + seen.firstProblem());
        }
        final List<String> report = new ArrayList<>();
        report.add(topicLine(probe));
        final boolean regression = regression();
        final int width = inputs(probe, regression, report);
        final TopicClasses learned =
                regression ? TopicClasses.REGRESSION : TopicClasses.of(classes, seen, nothingRead(probe));
        report.add(learned.line());
        final TopicSpec spec = spec(fields, regression, learned.names(), probe);
        final int outputs = regression ? 1 : learned.count();
        final long bound = bound(spec, probe);
        report.add(
                spec.ends().isEmpty()
                        ? spec.maxExamples() > 0
                                ? "end: after " + spec.maxExamples() + " examples (--max-examples)"
                                : "end: none, the job trains until it is deleted"
                        : "end: at offsets " + spec.ends() + " (--until-end)"
                                + (spec.maxExamples() > 0 ? " or after " + spec.maxExamples() + " examples" : ""));
        labelWarning(spec, outputs, seen).ifPresent(report::add);
        if (seen.decoded() < seen.records()) {
            report.add("warning: " + (seen.records() - seen.decoded()) + " of the " + seen.records() + " records "
                    + "read are no examples, the workers will set them aside; the first: " + seen.firstProblem());
        }
        return new Resolved(spec, width, outputs, bound, report);
    }

    /** Whether the job is a regression. */
    private boolean regression() {
        final String chosen = task == null ? "classification" : task.trim().toLowerCase(Locale.ROOT);
        if (!chosen.equals("classification") && !chosen.equals("regression")) {
            throw new SettingException("--task", "--task must be classification or regression, not " + task);
        }
        if (chosen.equals("regression") && classes != null) {
            throw new SettingException("--classes", "--classes does not apply to --task regression");
        }
        return chosen.equals("regression");
    }

    private int inputs(final TopicProbe.Result probe, final boolean regression, final List<String> report) {
        final int seen = probe.seen().inputs();
        if (inputs == null) {
            if (seen < 0) {
                throw new SettingException(
                        "--inputs",
                        nothingRead(probe) + ": give --inputs N"
                                + (classes == null && !regression
                                        ? " and --classes N (whole-number labels 0..N-1), or --task regression"
                                        : ""));
            }
            report.add("inputs: " + seen + " (the features of the first record read)");
            return seen;
        }
        if (seen >= 0 && seen != inputs) {
            throw new SettingException(
                    "--inputs",
                    "--inputs is " + inputs + ", but the first record of data topic " + topic + " read has " + seen
                            + " features");
        }
        report.add("inputs: " + inputs + " (--inputs)");
        return inputs;
    }

    /** Why nothing could be learned from {@code probe}'s topic. */
    private String nothingRead(final TopicProbe.Result probe) {
        if (probe.available() == 0) {
            return "data topic " + topic + " is empty, so nothing can be learned from its records";
        }
        return "no record of data topic " + topic + " could be read within " + TopicProbe.TIMEOUT.toSeconds() + " s ("
                + probe.available() + " before its end offsets)";
    }

    private TopicSpec spec(
            final ExampleFields fields,
            final boolean regression,
            final List<String> names,
            final TopicProbe.Result probe) {
        if (untilEnd && probe.available() == 0) {
            throw new SettingException(
                    "--until-end", "data topic " + topic + " is empty: --until-end would train on nothing");
        }
        final StringBuilder text = new StringBuilder(TopicSpec.KIND).append(':').append(topic);
        text.append(",features=")
                .append(String.join("+", featureFields()))
                .append(",label=")
                .append(fields.labelField());
        if (regression) {
            text.append(",task=regression");
        }
        if (maxExamples != null) {
            text.append(",max-examples=").append(maxExamples);
        }
        if (window != null) {
            text.append(",window=").append(window);
        }
        if (lingerMs != null) {
            text.append(",linger-ms=").append(lingerMs);
        }
        final TopicSpec spec;
        try {
            spec = TopicSpec.parse(text.toString()).withLabels(names).withEnds(untilEnd ? probe.ends() : List.of());
            return TopicSpec.parse(spec.toString());
        } catch (final IllegalArgumentException e) {
            throw new SettingException("--data-topic", e.getMessage());
        }
    }

    /** The examples {@code spec} trains at most: its {@code max-examples}, or those before its end offsets. */
    private static long bound(final TopicSpec spec, final TopicProbe.Result probe) {
        long bound = spec.maxExamples() > 0 ? spec.maxExamples() : Long.MAX_VALUE;
        if (!spec.ends().isEmpty()) {
            bound = Math.min(bound, probe.available());
        }
        return bound == Long.MAX_VALUE ? -1 : bound;
    }

    /** A warning when some labels of the records read are no targets of the job: the workers set those aside. */
    private Optional<String> labelWarning(final TopicSpec spec, final int outputs, final TopicSample.Seen seen) {
        final ExampleLabels targets = ExampleLabels.of(spec, outputs);
        int outside = 0;
        String first = null;
        for (final Map.Entry<String, Integer> label : new TreeMap<>(seen.labels()).entrySet()) {
            try {
                targets.target(label.getKey());
            } catch (final ExampleException e) {
                outside += label.getValue();
                first = first == null ? e.getMessage() : first;
            }
        }
        if (outside == 0) {
            return Optional.empty();
        }
        if (outside == seen.decoded()) {
            throw new SettingException(
                    spec.regression() ? "--task" : "--classes",
                    "none of the labels of the first " + seen.decoded() + " examples of data topic " + topic
                            + " is a target of the job (" + first + ")");
        }
        return Optional.of("warning: " + outside + " of the " + seen.decoded() + " examples read have "
                + "labels that are no target of the job (" + first + "); the workers will set such examples aside");
    }

    private String topicLine(final TopicProbe.Result probe) {
        final TopicSample.Seen seen = probe.seen();
        return "data topic " + topic + ": " + probe.partitions() + " partitions, end offsets " + probe.ends()
                + "; read " + seen.records() + " records, " + seen.decoded() + " of them examples"
                + (probe.timedOut()
                        ? "; the probe stopped after " + TopicProbe.TIMEOUT.toSeconds() + " s, before the end "
                                + "offsets, and learned only from those"
                        : "");
    }

    private String labelField() {
        return label == null ? DEFAULT_LABEL : label.trim();
    }

    private static void requireName(final String option, final String name) {
        if (!AVRO_NAME.matcher(name).matches()) {
            throw new SettingException(
                    option, option + " must name Avro record fields (letters, digits, _), not '" + name + "'");
        }
    }
}
