package io.paramhub.integration.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The PromQL that {@code docker/} deploys: the expressions of the Grafana dashboard's panels and variables
 * ({@code docker/grafana/dashboards/*.json}) and of the Prometheus alert rules
 * ({@code docker/prometheus/alerts.yaml}), each under a name saying where it is; and what each rule lacks.
 */
public final class ObservabilityFiles {

    /** The {@code docker/} folder, relative to the {@code integration-tests} module (where tests run). */
    public static final Path DOCKER = Path.of("..", "docker");

    public static final Path DASHBOARDS = DOCKER.resolve(Path.of("grafana", "dashboards"));
    public static final Path ALERTS = DOCKER.resolve(Path.of("prometheus", "alerts.yaml"));

    private ObservabilityFiles() {}

    /** Every panel target's and template variable's expression of every dashboard, by dashboard, panel and refId. */
    public static Map<String, String> dashboardQueries() throws IOException {
        final Map<String, String> queries = new LinkedHashMap<>();
        try (var files = Files.list(DASHBOARDS)) {
            for (final Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                final JsonNode dashboard = new ObjectMapper().readTree(file.toFile());
                for (final JsonNode panel : panels(dashboard)) {
                    for (final JsonNode target : panel.path("targets")) {
                        queries.put(
                                file.getFileName() + " panel \""
                                        + panel.path("title").asText() + "\" "
                                        + target.path("refId").asText(),
                                target.path("expr").asText());
                    }
                }
                for (final JsonNode variable : dashboard.path("templating").path("list")) {
                    queries.put(
                            file.getFileName() + " variable $"
                                    + variable.path("name").asText(),
                            variable.path("query").path("query").asText());
                }
            }
        }
        return queries;
    }

    /** Every alert rule's expression, by alert name. */
    public static Map<String, String> ruleQueries() throws IOException {
        final Map<String, String> queries = new LinkedHashMap<>();
        for (final Map<String, Object> rule : rules()) {
            queries.put("alert " + rule.get("alert"), String.valueOf(rule.get("expr")));
        }
        return queries;
    }

    /** What each alert rule lacks of alert, expr, for, labels.severity and annotations.summary. */
    public static List<String> ruleProblems() throws IOException {
        final List<String> problems = new ArrayList<>();
        final List<Map<String, Object>> rules = rules();
        if (rules.isEmpty()) {
            problems.add(ALERTS + " holds no rule");
        }
        for (final Map<String, Object> rule : rules) {
            final String name = "rule " + rule.getOrDefault("alert", rule);
            for (final String key : List.of("alert", "expr", "for")) {
                if (blank(rule.get(key))) {
                    problems.add(name + " has no " + key);
                }
            }
            if (!(rule.get("labels") instanceof Map<?, ?> labels) || blank(labels.get("severity"))) {
                problems.add(name + " has no labels.severity");
            }
            if (!(rule.get("annotations") instanceof Map<?, ?> annotations) || blank(annotations.get("summary"))) {
                problems.add(name + " has no annotations.summary");
            }
        }
        return problems;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rules() throws IOException {
        final Map<String, Object> file = new ObjectMapper(new YAMLFactory()).readValue(ALERTS.toFile(), Map.class);
        final List<Map<String, Object>> rules = new ArrayList<>();
        for (final Object group : (List<Object>) file.getOrDefault("groups", List.of())) {
            rules.addAll((List<Map<String, Object>>) ((Map<String, Object>) group).getOrDefault("rules", List.of()));
        }
        return rules;
    }

    private static List<JsonNode> panels(final JsonNode parent) {
        final List<JsonNode> panels = new ArrayList<>();
        for (final JsonNode panel : parent.path("panels")) {
            panels.add(panel);
            panels.addAll(panels(panel));
        }
        return panels;
    }

    private static boolean blank(final Object value) {
        return value == null || value.toString().isBlank();
    }
}
