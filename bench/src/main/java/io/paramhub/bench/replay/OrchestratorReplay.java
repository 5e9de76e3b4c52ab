package io.paramhub.bench.replay;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.orchestrator.OrchestratorRunner;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.TopicReader;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Feeds a recorded job's {@code jobs}, {@code membership} and {@code telemetry} records, with their
 * recorded timestamps and at full speed, into a fresh orchestrator (its own {@code application.id}
 * and topic prefix) with the default settings, and reads the {@code commands} it publishes until none
 * has come for {@link #QUIET} (or none at all for {@link #FIRST}); reports its telemetry throughput
 * (start-up included) and whether its newest command per worker equals the recorded one (plan
 * version, share, threads).
 */
final class OrchestratorReplay {

    static final Duration QUIET = Duration.ofSeconds(5);
    static final Duration FIRST = Duration.ofSeconds(120);

    /** What an orchestrator replay measured. */
    record Outcome(
            String job,
            String topicPrefix,
            String applicationId,
            long telemetry,
            double seconds,
            int commands,
            int recordedCommands,
            boolean samePlan) {

        double telemetryPerSecond() {
            return telemetry / seconds;
        }
    }

    private OrchestratorReplay() {}

    static Outcome run(
            final Recording recording,
            final KafkaConnection connection,
            final String topicPrefix,
            final String applicationId,
            final Path stateDir) {
        final JobSpec spec = recording.job();
        final TopicCatalog topics = connection.topics(topicPrefix);
        final Properties client = connection.client();
        final Properties streams = connection.streams(applicationId, stateDir);
        final Map<String, ResourceCommand> recorded = new TreeMap<>();
        for (final RecordedRecord record : recording.records(RecordedTopic.COMMANDS)) {
            final ResourceCommand command = RecordedTopic.COMMANDS.decode(record.value());
            recorded.put(command.getWorker(), command);
        }
        final Map<String, ResourceCommand> replayed = new TreeMap<>();
        int commands = 0;
        long telemetry = 0;
        try (OrchestratorRunner orchestrator = OrchestratorRunner.start(
                        streams, topicPrefix, TopicSetup.defaults(), OrchestratorSettings.defaults());
                KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                        ClientProperties.producer(client), new StringSerializer(), new ByteArraySerializer())) {
            final long started = System.nanoTime();
            for (final ReplayFeed.Item item : recording.feedForOrchestrator()) {
                final Object value = item.topic().decode(item.record().value());
                final Topic<String, Object> topic = item.topic().in(topics);
                producer.send(new ProducerRecord<>(
                        topic.name(),
                        null,
                        item.record().timestamp(),
                        item.record().key(),
                        topic.valueSerde().serializer().serialize(topic.name(), value)));
                if (item.topic() == RecordedTopic.TELEMETRY) {
                    telemetry++;
                }
            }
            producer.flush();
            final long fed = System.nanoTime();
            long lastCommand = fed;
            try (TopicReader<String, ResourceCommand> reader = new TopicReader<>(topics.commands(), client)) {
                // a fresh Streams app may take a while to start: wait up to FIRST for its first command
                while (commands == 0
                        ? System.nanoTime() - fed < FIRST.toNanos()
                        : System.nanoTime() - lastCommand < QUIET.toNanos()) {
                    final int read = reader.poll(Duration.ofMillis(50), record -> {
                        if (record.value() != null
                                && spec.getJob().equals(record.value().getJob())) {
                            replayed.put(record.value().getWorker(), record.value());
                        }
                    });
                    if (read > 0) {
                        commands += read;
                        lastCommand = System.nanoTime();
                    }
                }
            }
            final boolean samePlan = !recorded.isEmpty()
                    && recorded.keySet().equals(replayed.keySet())
                    && recorded.keySet().stream()
                            .allMatch(worker -> samePlan(recorded.get(worker), replayed.get(worker)));
            return new Outcome(
                    spec.getJob(),
                    topicPrefix,
                    applicationId,
                    telemetry,
                    (lastCommand - started) / 1e9,
                    commands,
                    recording.records(RecordedTopic.COMMANDS).size(),
                    samePlan);
        }
    }

    private static boolean samePlan(final ResourceCommand a, final ResourceCommand b) {
        return a.getEpoch() == b.getEpoch()
                && a.getBatchShare() == b.getBatchShare()
                && a.getThreads() == b.getThreads();
    }
}
