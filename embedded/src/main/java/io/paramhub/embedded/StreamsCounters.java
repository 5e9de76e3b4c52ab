package io.paramhub.embedded;

import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Counters a Kafka Streams app's stream threads keep, summed over the threads: its commits (the thread metric
 * {@code commit-total}; a thread counts one each time it commits at least one task, under {@code exactly_once_v2}
 * one transaction of its producer) and the rebalances of its group (the main consumers' {@code rebalance-total}).
 * Read them before the app closes: closing removes the metrics.
 */
public final class StreamsCounters {

    static final String COMMITS_GROUP = "stream-thread-metrics";
    static final String COMMITS = "commit-total";
    static final String REBALANCES_GROUP = "consumer-coordinator-metrics";
    static final String REBALANCES = "rebalance-total";

    private StreamsCounters() {}

    /** The commits of {@code streams}' threads so far. */
    public static long commits(final KafkaStreams streams) {
        return sum(streams.metrics(), COMMITS_GROUP, COMMITS);
    }

    /** The rebalances {@code streams}' threads completed so far. */
    public static long rebalances(final KafkaStreams streams) {
        return sum(streams.metrics(), REBALANCES_GROUP, REBALANCES);
    }

    /** The sum of every metric {@code name} of {@code group} among {@code metrics}. */
    static long sum(final Map<MetricName, ? extends Metric> metrics, final String group, final String name) {
        double total = 0;
        for (final Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
            if (group.equals(metric.getKey().group())
                    && name.equals(metric.getKey().name())
                    && metric.getValue().metricValue() instanceof Number value) {
                total += value.doubleValue();
            }
        }
        return Math.round(total);
    }
}
