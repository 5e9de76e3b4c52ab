package io.paramhub.integration.apps;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression queries: its identifiers less functions and aggregations (followed by
 * {@code (}), keywords, label names (in {@code {...}} and in the lists of {@code by}, {@code without},
 * {@code on}, {@code ignoring}, {@code group_left}, {@code group_right}), strings, ranges and Grafana's
 * {@code $variables}; of Grafana's {@code label_values(metric, label)}, the metric. Enough for the
 * expressions of our dashboard and alert rules, not a PromQL parser.
 */
public final class PromQlNames {

    private static final Set<String> KEYWORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "and",
            "or",
            "unless",
            "offset",
            "atan2",
            "inf",
            "nan");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    private static final Pattern LABEL_VALUES =
            Pattern.compile("\\blabel_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*,[^)]*\\)");
    private static final Pattern LABEL_LIST =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern TOKEN = Pattern.compile(
            "(\\d+(?:\\.\\d*)?(?:[eE][+-]?\\d+)?[a-zA-Z]*)|([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(\\()?|(.)", Pattern.DOTALL);

    private PromQlNames() {}

    /** The metric names {@code expr} reads. */
    public static Set<String> of(final String expr) {
        String rest = STRING.matcher(expr).replaceAll("\"\"");
        rest = VARIABLE.matcher(rest).replaceAll("1");
        rest = rest.replaceAll("\\{[^}]*}", " ").replaceAll("\\[[^]]*]", " ");
        rest = LABEL_VALUES.matcher(rest).replaceAll("$1");
        rest = LABEL_LIST.matcher(rest).replaceAll(" ");
        final Set<String> names = new TreeSet<>();
        final Matcher token = TOKEN.matcher(rest);
        while (token.find()) {
            final String identifier = token.group(2);
            if (identifier != null
                    && token.group(3) == null
                    && !KEYWORDS.contains(identifier.toLowerCase(Locale.ROOT))) {
                names.add(identifier);
            }
        }
        return names;
    }
}
