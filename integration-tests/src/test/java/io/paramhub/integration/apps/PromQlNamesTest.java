package io.paramhub.integration.apps;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlNamesTest {

    @Test
    void shouldFindMetricNamesButNotFunctionsLabelsOrKeywordsWhenAnExpressionAggregates() {
        // given
        final String expr = "histogram_quantile(0.99, sum by (le, job) "
                + "(rate(paramhub_worker_iteration_wait_seconds_bucket{job=~\"$job\", app=\"paramhub-worker\"}"
                + "[$__rate_interval]))) > 1e3 and on (job) paramhub_worker_finished == bool 0";

        // when
        final var names = PromQlNames.of(expr);

        // then
        assertThat(names).containsExactly("paramhub_worker_finished", "paramhub_worker_iteration_wait_seconds_bucket");
    }

    @Test
    void shouldFindEveryOperandWhenAnExpressionCombinesMetricsWithoutAggregation() {
        // given
        final String expr = "rate(a_seconds_sum[5m]) / ignoring(quantile) rate(a_seconds_count[5m] offset 1h)"
                + " unless max without (instance) (b:recorded) or c";

        // when
        final var names = PromQlNames.of(expr);

        // then
        assertThat(names).containsExactly("a_seconds_count", "a_seconds_sum", "b:recorded", "c");
    }

    @Test
    void shouldFindTheMetricButNotTheLabelWhenAGrafanaVariableListsLabelValues() {
        // given
        final String query = "label_values(paramhub_aggregator_model_version{app=\"paramhub-aggregator\"}, job)";

        // when
        final var names = PromQlNames.of(query);

        // then
        assertThat(names).containsExactly("paramhub_aggregator_model_version");
    }
}
