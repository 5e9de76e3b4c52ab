package io.paramhub.worker;

import io.paramhub.launcher.SettingException;
import io.paramhub.ml.ExampleLabels;
import java.util.List;

/**
 * The classes of a job from a topic, as the submitter settles them: their count, their names when the labels are
 * text or an enum (empty when labels are class indices), and one line saying where they came from. Given with
 * {@code --classes}, or learned from the labels of the topic's first records as {@link ExampleLabels#learn}
 * says, an enum label's symbols taking precedence. Reads no topic.
 */
record TopicClasses(int count, List<String> names, String line) {

    /** A regression's single output, without classes. */
    static final TopicClasses REGRESSION = new TopicClasses(1, List.of(), "task: regression, 1 output");

    /** Copies the names. */
    TopicClasses {
        names = List.copyOf(names);
    }

    /**
     * The classes of {@code given} ({@code --classes}, or null) and the labels {@code seen}; {@code nothingRead}
     * says why no label was seen, if none was.
     *
     * @throws SettingException when {@code --classes} is needed, contradicts text or enum labels, or there are
     *     fewer than 2 classes, or a class name cannot be written in a data spec
     */
    static TopicClasses of(final Integer given, final TopicSample.Seen seen, final String nothingRead) {
        final TopicClasses classes;
        if (!seen.enumSymbols().isEmpty()) {
            classes = named(given, seen.enumSymbols(), "the symbols of the label's enum, in their order");
        } else if (seen.labels().isEmpty()) {
            if (given == null) {
                throw new SettingException(
                        "--classes",
                        nothingRead + ": give --classes N (whole-number labels 0..N-1), or --task regression");
            }
            classes = indices(given, "--classes");
        } else {
            final ExampleLabels.Classes learned =
                    ExampleLabels.learn(seen.labels().keySet());
            if (!learned.names().isEmpty()) {
                classes = named(given, learned.names(), "the distinct labels of the examples read, sorted");
            } else if (given != null) {
                classes = indices(given, "--classes");
            } else {
                classes = indices(learned.count(), "the largest label of the examples read + 1");
            }
        }
        if (classes.count() < 2) {
            throw new SettingException(
                    "--classes",
                    "a classification needs at least 2 classes, not " + classes.count() + " (" + classes.line()
                            + "): give --classes N for whole-number labels 0..N-1, or --task regression");
        }
        for (final String name : classes.names()) {
            if (name.isEmpty() || name.contains(",") || name.contains("|")) {
                throw new SettingException(
                        "--label",
                        "the label '" + name + "' cannot name a class in a data spec (empty, or with , or |)");
            }
        }
        return classes;
    }

    private static TopicClasses indices(final int count, final String how) {
        return new TopicClasses(
                count, List.of(), "classes: " + count + ", labels 0.." + (count - 1) + " (" + how + ")");
    }

    private static TopicClasses named(final Integer given, final List<String> names, final String how) {
        if (given != null && given != names.size()) {
            throw new SettingException(
                    "--classes",
                    "--classes is " + given + ", but the labels are " + names.size() + " names " + names + " (" + how
                            + "): leave --classes out");
        }
        return new TopicClasses(names.size(), names, "classes: " + names.size() + " " + names + " (" + how + ")");
    }
}
