package io.paramhub.embedded;

import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;

/**
 * How many rebalances of its group a Kafka Streams app's stream threads went through: the main consumers'
 * {@code rebalance-total} (group {@value #GROUP}), summed over the threads.
 */
public final class StreamsRebalances {

    static final String GROUP = "consumer-coordinator-metrics";
    static final String NAME = "rebalance-total";

    private StreamsRebalances() {}

    /** The rebalances {@code streams}' threads completed so far (read before it closes). */
    public static long total(final KafkaStreams streams) {
        return total(streams.metrics());
    }

    /** The sum of every {@value #GROUP} {@value #NAME} among {@code metrics}. */
    static long total(final Map<MetricName, ? extends Metric> metrics) {
        double rebalances = 0;
        for (final Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
            if (GROUP.equals(metric.getKey().group())
                    && NAME.equals(metric.getKey().name())
                    && metric.getValue().metricValue() instanceof Number value) {
                rebalances += value.doubleValue();
            }
        }
        return Math.round(rebalances);
    }
}
