package io.paramhub.bench.replay;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.SyncMode;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.ModelView;
import io.paramhub.topology.client.TopicReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Feeds a recorded job's {@code jobs}, {@code membership} and {@code gradients} records, with their
 * recorded timestamps and at full speed, into a fresh aggregator (its own {@code application.id} and
 * topic prefix), reads the {@code model} it publishes until every shard reaches a target version (the
 * recorded final one, unless told otherwise), and measures its throughput and, under BSP, the latency of
 * each model update after the barrier's last gradient was acknowledged. Compares the model it reached with
 * the target's parameters bit for bit.
 */
final class AggregatorReplay {

    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    /** The model the replayed aggregator must reach: every shard at {@code version}, with these parameters. */
    record Target(long version, float[] parameters) {

        /** The newest model of the recording. */
        static Target recorded(final Recording recording) {
            final ModelView model = recording.finalModel();
            return new Target(model.minVersion(), model.assemble(recording.job().getParameters()));
        }
    }

    /** What a replay measured. */
    record Outcome(
            String job,
            String topicPrefix,
            String applicationId,
            long gradients,
            long gradientBytes,
            double seconds,
            List<Double> updateLatenciesMs,
            long targetVersion,
            long replayedVersion,
            int differingParameters,
            int parameters) {

        /** Gradient values (float32) a second, in MB of 2^20 bytes as Kafka's tools count them. */
        double megabytesPerSecond() {
            return gradientBytes / (1024.0 * 1024.0) / seconds;
        }

        double recordsPerSecond() {
            return gradients / seconds;
        }

        double floatsPerSecond() {
            return gradientBytes / 4.0 / seconds;
        }

        boolean bitIdentical() {
            return differingParameters == 0 && targetVersion == replayedVersion;
        }
    }

    private AggregatorReplay() {}

    /** Replays {@code recording} until the aggregator reaches the recorded final model. */
    static Outcome run(
            final Recording recording,
            final KafkaConnection connection,
            final String topicPrefix,
            final String applicationId,
            final Path stateDir)
            throws InterruptedException {
        return run(recording, connection, topicPrefix, applicationId, stateDir, Target.recorded(recording), false);
    }

    /**
     * Replays {@code recording} until the aggregator reaches {@code target}. Without {@code preFed} it is fed
     * as the recording goes, and the time runs from the first gradient sent to the last model version. With
     * {@code preFed} it is paused once version 0 is out while the whole recording is written, and the time runs
     * from its resumption to the last model version: what it applies when its input is already in Kafka, not
     * how fast a producer can feed it (no per-barrier latencies then).
     */
    static Outcome run(
            final Recording recording,
            final KafkaConnection connection,
            final String topicPrefix,
            final String applicationId,
            final Path stateDir,
            final Target target,
            final boolean preFed)
            throws InterruptedException {
        final JobSpec spec = recording.job();
        final TopicCatalog topics = connection.topics(topicPrefix);
        final Properties client = connection.client();
        final Properties streams = connection.streams(applicationId, stateDir);

        final long targetVersion = target.version();
        final Map<String, Long> seen = new ConcurrentHashMap<>();
        final Map<String, Long> acked = new ConcurrentHashMap<>();
        final AtomicReference<Exception> failure = new AtomicReference<>();
        long gradientBytes = 0;
        long gradients = 0;
        try (AggregatorRunner aggregator = AggregatorRunner.start(streams, topicPrefix, TopicSetup.defaults());
                TopicReader<String, ModelShard> models = new TopicReader<>(topics.model(), client);
                KafkaProducer<String, byte[]> producer =
                        new KafkaProducer<>(fastProducer(client), new StringSerializer(), new ByteArraySerializer())) {
            final ModelView replayed = new ModelView(spec.getJob(), spec.getShards());
            long firstSend = 0;
            boolean jobKnown = false;
            Thread reader = null;
            final AtomicReference<RuntimeException> readFailure = new AtomicReference<>();
            for (final ReplayFeed.Item item : recording.feedForAggregator()) {
                if (!jobKnown && item.topic() != RecordedTopic.JOBS) {
                    // as workers do: nothing before the aggregator has published version 0, else its shards
                    // would take the first gradients for an unknown job's
                    producer.flush();
                    awaitVersion(models, replayed, spec.getJob(), seen, 0, failure);
                    if (preFed) {
                        aggregator.streams().pause();
                    }
                    jobKnown = true;
                    // from here a thread of its own reads model, so that reading never slows the feed
                    reader = new Thread(
                            () -> {
                                try {
                                    awaitVersion(models, replayed, spec.getJob(), seen, targetVersion, failure);
                                } catch (final RuntimeException e) {
                                    readFailure.set(e);
                                }
                            },
                            "replay-model-reader");
                    reader.start();
                }
                final Object value = item.topic().decode(item.record().value());
                final Topic<String, Object> topic = item.topic().in(topics);
                final byte[] bytes = topic.valueSerde().serializer().serialize(topic.name(), value);
                final ProducerRecord<String, byte[]> record = new ProducerRecord<>(
                        topic.name(),
                        null,
                        item.record().timestamp(),
                        item.record().key(),
                        bytes);
                if (value instanceof GradientShard gradient) {
                    if (firstSend == 0) {
                        firstSend = System.nanoTime();
                    }
                    gradients++;
                    gradientBytes += gradient.getValues().remaining();
                    final String barrier = gradient.getShard() + "/" + (gradient.getClock() + 1);
                    producer.send(record, (metadata, error) -> {
                        if (error != null) {
                            failure.compareAndSet(null, error);
                        }
                        acked.merge(barrier, System.nanoTime(), Math::max);
                    });
                } else {
                    producer.send(record, (metadata, error) -> {
                        if (error != null) {
                            failure.compareAndSet(null, error);
                        }
                    });
                }
            }
            producer.flush();
            if (preFed && reader != null) {
                firstSend = System.nanoTime();
                aggregator.streams().resume();
            }
            if (reader == null) {
                throw new IllegalArgumentException("the recording of job " + spec.getJob() + " holds no gradient");
            }
            reader.join();
            if (readFailure.get() != null) {
                throw readFailure.get();
            }
            final long lastModel =
                    seen.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            final float[] expected = target.parameters();
            final float[] actual = replayed.assemble(spec.getParameters());
            int differing = 0;
            for (int i = 0; i < expected.length; i++) {
                if (Float.floatToRawIntBits(expected[i]) != Float.floatToRawIntBits(actual[i])) {
                    differing++;
                }
            }
            return new Outcome(
                    spec.getJob(),
                    topicPrefix,
                    applicationId,
                    gradients,
                    gradientBytes,
                    (lastModel - firstSend) / 1e9,
                    spec.getSyncMode() == SyncMode.BSP && !preFed ? latencies(seen, acked) : List.of(),
                    targetVersion,
                    replayed.minVersion(),
                    differing,
                    expected.length);
        }
    }

    private static void awaitVersion(
            final TopicReader<String, ModelShard> models,
            final ModelView replayed,
            final String job,
            final Map<String, Long> seen,
            final long version,
            final AtomicReference<Exception> failure) {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!replayed.complete() || replayed.minVersion() < version) {
            if (failure.get() != null) {
                throw new IllegalStateException(
                        "replay could not produce: " + failure.get().getMessage(), failure.get());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the replayed aggregator did not reach version " + version + " in "
                        + TIMEOUT + "; it is at " + Arrays.toString(replayed.versions()));
            }
            poll(models, replayed, job, seen);
        }
    }

    /** Under BSP, version v of a shard applies clock v-1: its latency runs from that clock's last gradient ack. */
    private static List<Double> latencies(final Map<String, Long> seen, final Map<String, Long> acked) {
        final List<Double> latencies = new ArrayList<>();
        seen.forEach((barrier, at) -> {
            final Long ack = acked.get(barrier);
            if (ack != null) {
                latencies.add(Math.max(0, at - ack) / 1e6);
            }
        });
        latencies.sort(Double::compare);
        return latencies;
    }

    private static void poll(
            final TopicReader<String, ModelShard> models,
            final ModelView view,
            final String job,
            final Map<String, Long> seen) {
        models.poll(Duration.ofMillis(1), record -> {
            final ModelShard shard = record.value();
            if (shard != null && job.equals(shard.getJob())) {
                view.offer(shard);
                seen.putIfAbsent(shard.getShard() + "/" + shard.getVersion(), System.nanoTime());
            }
        });
    }

    private static Properties fastProducer(final Properties client) {
        final Properties props = new Properties();
        props.putAll(client);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 2);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        return ClientProperties.producer(props);
    }
}
