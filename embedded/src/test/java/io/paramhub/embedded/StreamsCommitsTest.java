package io.paramhub.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

class StreamsCommitsTest {

    @Test
    void shouldSumEveryStreamThreadsCommitTotalAndNothingElseWhenReadingAnAppsMetrics() {
        // given: two stream threads' commit-total, a commit-rate, and a commit-total of another group
        final Map<MetricName, Metric> metrics = new LinkedHashMap<>();
        put(metrics, "commit-total", "stream-thread-metrics", "thread-1", 470.0);
        put(metrics, "commit-total", "stream-thread-metrics", "thread-2", 3.0);
        put(metrics, "commit-rate", "stream-thread-metrics", "thread-1", 8.5);
        put(metrics, "commit-total", "stream-task-metrics", "thread-1", 999.0);

        // when
        final long commits = StreamsCommits.total(metrics);

        // then
        assertThat(commits).isEqualTo(473);
    }

    @Test
    void shouldCountNoCommitWhenTheAppHasNoStreamThreadMetrics() {
        assertThat(StreamsCommits.total(Map.of())).isZero();
    }

    private static void put(
            final Map<MetricName, Metric> metrics,
            final String name,
            final String group,
            final String thread,
            final double value) {
        final MetricName metricName = new MetricName(name, group, "", Map.of("thread-id", thread));
        metrics.put(metricName, new Metric() {
            @Override
            public MetricName metricName() {
                return metricName;
            }

            @Override
            public Object metricValue() {
                return value;
            }
        });
    }
}
