package io.paramhub.bench.replay;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.embedded.KafkaConnection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A replayed aggregator's gradient throughput next to Kafka's own limits on the same cluster, measured with
 * records of the replayed gradients' mean size ({@link KafkaLimits}: ProducerPerformance, ConsumerPerformance
 * and an exactly-once pass-through Streams app). Sizes and MB/s count a record's value as it travels: its
 * Avro binary plus the 5-byte Confluent wire header; MB are 2^20 bytes, as Kafka's tools count them.
 */
public record KafkaComparison(
        int recordSizeBytes,
        long records,
        double aggregatorRecordsPerSecond,
        double aggregatorMegabytesPerSecond,
        KafkaLimits.Limits limits) {

    /** Bytes the Confluent wire format puts before a value's Avro binary: a magic byte and the schema id. */
    static final int WIRE_HEADER_BYTES = 5;

    /**
     * Measures Kafka's limits on {@code connection}'s cluster with {@code records} records of the mean size of
     * {@code recording}'s gradients (the ones {@code outcome} replayed), in topics named from {@code prefix}.
     */
    static KafkaComparison measure(
            final Recording recording,
            final AggregatorReplay.Outcome outcome,
            final KafkaConnection connection,
            final String prefix,
            final long records,
            final Path stateDir)
            throws IOException, InterruptedException {
        final List<RecordedRecord> gradients = recording.records(RecordedTopic.GRADIENTS);
        final long bytes = gradients.stream()
                .mapToLong(record -> record.value().length + (long) WIRE_HEADER_BYTES)
                .sum();
        final int recordSize = (int) Math.max(1, Math.round((double) bytes / Math.max(1, gradients.size())));
        final KafkaLimits.Limits limits = KafkaLimits.measure(connection, prefix, recordSize, records, stateDir);
        return new KafkaComparison(
                recordSize,
                limits.records(),
                outcome.recordsPerSecond(),
                bytes / (1024.0 * 1024.0) / outcome.seconds(),
                limits);
    }

    /** The aggregator's MB/s over the exactly-once pass-through Streams app's. */
    public double megabytesRatioToPassThrough() {
        return aggregatorMegabytesPerSecond / limits.streamsPassThrough().megabytesPerSecond();
    }

    /**
     * Writes {@code record_size_bytes}, {@code records}, {@code aggregator_records_per_s},
     * {@code aggregator_record_mb_per_s} and, for {@code producer_performance}, {@code consumer_performance}
     * and {@code streams_pass_through_eos}, their {@code records_per_s}, {@code mb_per_s} and the aggregator's
     * ratios to them ({@code aggregator_ratio_records}, {@code aggregator_ratio_mb}).
     */
    public void writeTo(final ObjectNode node) {
        node.put("record_size_bytes", recordSizeBytes);
        node.put("records", records);
        node.put("aggregator_records_per_s", aggregatorRecordsPerSecond);
        node.put("aggregator_record_mb_per_s", aggregatorMegabytesPerSecond);
        rate(node.putObject("producer_performance"), limits.producer());
        rate(node.putObject("consumer_performance"), limits.consumer());
        rate(node.putObject("streams_pass_through_eos"), limits.streamsPassThrough());
    }

    /** One line: Kafka's rates and the aggregator's as a fraction of each. */
    public String summary() {
        return String.format(
                Locale.ROOT,
                "Kafka's limits here with %d-byte records (%d of them): producer %.0f rec/s, "
                        + "consumer %.0f rec/s, exactly-once pass-through Streams %.0f rec/s; the aggregator %.0f rec/s = "
                        + "%.2f / %.2f / %.2f of them",
                recordSizeBytes,
                records,
                limits.producer().recordsPerSecond(),
                limits.consumer().recordsPerSecond(),
                limits.streamsPassThrough().recordsPerSecond(),
                aggregatorRecordsPerSecond,
                aggregatorRecordsPerSecond / limits.producer().recordsPerSecond(),
                aggregatorRecordsPerSecond / limits.consumer().recordsPerSecond(),
                aggregatorRecordsPerSecond / limits.streamsPassThrough().recordsPerSecond());
    }

    private void rate(final ObjectNode node, final KafkaLimits.Rate rate) {
        node.put("records_per_s", rate.recordsPerSecond());
        node.put("mb_per_s", rate.megabytesPerSecond());
        node.put("aggregator_ratio_records", aggregatorRecordsPerSecond / rate.recordsPerSecond());
        node.put("aggregator_ratio_mb", aggregatorMegabytesPerSecond / rate.megabytesPerSecond());
    }
}
