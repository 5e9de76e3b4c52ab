package io.paramhub.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

class StreamsCountersTest {

    @Test
    void shouldSumEveryStreamThreadsCommitTotalAndNothingElseWhenReadingAnAppsMetrics() {
        // given: two stream threads' commit-total, a commit-rate, and a commit-total of another group
        final Map<MetricName, Metric> metrics = new LinkedHashMap<>();
        put(metrics, "commit-total", "stream-thread-metrics", "thread-1", 470.0);
        put(metrics, "commit-total", "stream-thread-metrics", "thread-2", 3.0);
        put(metrics, "commit-rate", "stream-thread-metrics", "thread-1", 8.5);
        put(metrics, "commit-total", "stream-task-metrics", "thread-1", 999.0);

        // when
        final long commits = StreamsCounters.sum(metrics, StreamsCounters.COMMITS_GROUP, StreamsCounters.COMMITS);

        // then
        assertThat(commits).isEqualTo(473);
    }

    @Test
    void shouldSumTheMainConsumersRebalanceTotalsApartFromTheirOtherCoordinatorMetrics() {
        // given: two threads' rebalance-total and a rebalance-rate of the same group
        final Map<MetricName, Metric> metrics = new LinkedHashMap<>();
        put(metrics, "rebalance-total", "consumer-coordinator-metrics", "thread-1", 2.0);
        put(metrics, "rebalance-total", "consumer-coordinator-metrics", "thread-2", 1.0);
        put(metrics, "rebalance-rate-per-hour", "consumer-coordinator-metrics", "thread-1", 7.0);

        // when
        final long rebalances =
                StreamsCounters.sum(metrics, StreamsCounters.REBALANCES_GROUP, StreamsCounters.REBALANCES);

        // then
        assertThat(rebalances).isEqualTo(3);
    }

    @Test
    void shouldCountNoCommitWhenTheAppHasNoStreamThreadMetrics() {
        assertThat(StreamsCounters.sum(Map.of(), StreamsCounters.COMMITS_GROUP, StreamsCounters.COMMITS))
                .isZero();
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
