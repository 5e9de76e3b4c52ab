package io.paramhub.integration.apps;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The samples of a Prometheus text exposition, enough for tests to read values by name and labels. */
public record PrometheusText(List<Sample> samples) {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+).*$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** One sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    public static PrometheusText parse(final String text) {
        final List<Sample> samples = new ArrayList<>();
        for (final String line : text.lines().toList()) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            final Matcher matcher = SAMPLE.matcher(line);
            if (!matcher.matches()) {
                throw new IllegalArgumentException("not a Prometheus sample: " + line);
            }
            final Map<String, String> labels = new LinkedHashMap<>();
            if (matcher.group(2) != null) {
                final Matcher label = LABEL.matcher(matcher.group(2));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            samples.add(new Sample(matcher.group(1), labels, Double.parseDouble(matcher.group(3))));
        }
        return new PrometheusText(samples);
    }

    /** The samples named {@code name} whose labels include {@code labels}. */
    public List<Sample> find(final String name, final Map<String, String> labels) {
        return samples.stream()
                .filter(sample ->
                        sample.name().equals(name) && sample.labels().entrySet().containsAll(labels.entrySet()))
                .toList();
    }

    /** The sum of the samples named {@code name} whose labels include {@code labels}; NaN when there are none. */
    public double sum(final String name, final Map<String, String> labels) {
        final List<Sample> found = find(name, labels);
        return found.isEmpty()
                ? Double.NaN
                : found.stream().mapToDouble(Sample::value).sum();
    }

    /** Whether a sample's name starts with {@code prefix}. */
    public boolean hasPrefix(final String prefix) {
        return samples.stream().anyMatch(sample -> sample.name().startsWith(prefix));
    }
}
