package io.paramhub.bench.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Saves one job's records, as committed now, from {@code jobs}, {@code membership}, {@code gradients},
 * {@code telemetry}, {@code commands} and {@code model} into a directory: one file per topic (see
 * {@link RecordingFiles}) and {@code manifest.json}. A record belongs to job J when its key is J or
 * starts with {@code J/}. Reads those topics; writes nothing to Kafka.
 */
final class Recorder {

    static final String MANIFEST = "manifest.json";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Recorder() {}

    /** Records {@code job}; returns the record count per topic. */
    static Map<RecordedTopic, Integer> record(
            final TopicCatalog topics, final Properties client, final String job, final Path dir) throws IOException {
        final Map<RecordedTopic, List<RecordedRecord>> byTopic = read(topics, client, job, RecordFilter.ALL);
        Files.createDirectories(dir);
        final Map<RecordedTopic, Integer> counts = new EnumMap<>(RecordedTopic.class);
        for (final Map.Entry<RecordedTopic, List<RecordedRecord>> records : byTopic.entrySet()) {
            RecordingFiles.write(dir.resolve(records.getKey().fileName()), records.getValue());
            counts.put(records.getKey(), records.getValue().size());
        }
        final ObjectNode manifest = JSON.createObjectNode();
        manifest.put("job", job);
        manifest.put("topic_prefix", topics.prefix());
        manifest.put("recorded_at", Instant.now().toString());
        manifest.put(
                "format",
                "per topic: partition int, offset long, timestamp long, key UTF, value length int, "
                        + "value as Avro binary of the topic's record class (big-endian)");
        final ObjectNode files = manifest.putObject("records");
        counts.forEach((topic, count) -> files.put(topic.fileName(), count));
        JSON.writeValue(dir.resolve(MANIFEST).toFile(), manifest);
        return counts;
    }

    /**
     * {@code job}'s records, as committed now, of every recorded topic; empty for a topic {@code filter}
     * does not read.
     *
     * @throws IllegalArgumentException if the job is not on {@code jobs}
     */
    static Map<RecordedTopic, List<RecordedRecord>> read(
            final TopicCatalog topics, final Properties client, final String job, final RecordFilter filter) {
        final Map<RecordedTopic, List<RecordedRecord>> byTopic = new EnumMap<>(RecordedTopic.class);
        for (final RecordedTopic recorded : RecordedTopic.values()) {
            byTopic.put(
                    recorded,
                    filter.reads(recorded) ? readJob(recorded, recorded.in(topics), client, job, filter) : List.of());
        }
        if (byTopic.get(RecordedTopic.JOBS).isEmpty()) {
            throw new IllegalArgumentException(
                    "no job " + job + " on " + topics.jobs().name());
        }
        return byTopic;
    }

    private static <V> List<RecordedRecord> readJob(
            final RecordedTopic recorded,
            final Topic<String, V> topic,
            final Properties client,
            final String job,
            final RecordFilter filter) {
        final List<RecordedRecord> records = new ArrayList<>();
        try (KafkaConsumer<String, V> consumer = new KafkaConsumer<>(
                ClientProperties.assignedConsumer(client),
                new StringDeserializer(),
                topic.valueSerde().deserializer())) {
            final List<TopicPartition> partitions = consumer.partitionsFor(topic.name(), TIMEOUT).stream()
                    .map(info -> new TopicPartition(topic.name(), info.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, TIMEOUT);
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic.name() + " up to " + ends);
                }
                for (final ConsumerRecord<String, V> record : consumer.poll(Duration.ofMillis(100))) {
                    if (record.value() != null
                            && (job.equals(record.key()) || record.key().startsWith(job + "/"))
                            && filter.keeps(recorded, record.value())) {
                        records.add(new RecordedRecord(
                                record.partition(),
                                record.offset(),
                                record.timestamp(),
                                record.key(),
                                recorded.encode(record.value())));
                    }
                }
            }
        }
        return records;
    }
}
