package io.paramhub.embedded;

import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * How many times a Kafka Streams app's stream threads committed: the thread metric {@code commit-total}
 * (group {@value #GROUP}), summed over the threads. A thread counts one commit each time it commits at least
 * one task; under {@code exactly_once_v2} that is one transaction of the thread's producer.
 */
public final class StreamsCommits {

    static final String GROUP = "stream-thread-metrics";
    static final String NAME = "commit-total";

    private StreamsCommits() {}

    /** The commits of {@code streams}' threads so far (read before it closes: closing removes the metrics). */
    public static long total(final KafkaStreams streams) {
        return total(streams.metrics());
    }

    /** The sum of every {@value #GROUP} {@value #NAME} among {@code metrics}. */
    static long total(final Map<MetricName, ? extends Metric> metrics) {
        double commits = 0;
        for (final Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
            if (GROUP.equals(metric.getKey().group())
                    && NAME.equals(metric.getKey().name())
                    && metric.getValue().metricValue() instanceof Number value) {
                commits += value.doubleValue();
            }
        }
        return Math.round(commits);
    }
}
