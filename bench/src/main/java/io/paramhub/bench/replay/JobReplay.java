package io.paramhub.bench.replay;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.topology.TopicCatalog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What {@code paramhub replay --target aggregator --kafka-limits} measures, for a job still on the cluster it
 * trained on and without a recording directory: reads the job and the membership and gradient records of its
 * first N clocks ({@link Recorder}, {@link RecordFilter#aggregatorFeed}), feeds them at full speed into a fresh
 * aggregator (application id {@code paramhub-replay-aggregator-<time>}, topic prefix {@code replay-<time>.})
 * until every shard reaches version N, compares that model with the expected parameters bit for bit, then
 * measures Kafka's limits with as many records of the gradients' mean size ({@link KafkaComparison}). Reads
 * the job's {@code jobs}, {@code membership} and {@code gradients}; writes the replay's own topics and its
 * {@code limits} and {@code limits-out}.
 */
public final class JobReplay {

    /** What the replay measured; {@code gradientBytes} counts the float32 values only. */
    public record Outcome(
            String job,
            long clocks,
            long gradients,
            long gradientBytes,
            double seconds,
            long replayedVersion,
            int differingParameters,
            KafkaComparison kafka) {

        /** Whether the replayed aggregator reached version {@code clocks} with the expected parameters, bit for bit. */
        public boolean sameModel() {
            return differingParameters == 0 && replayedVersion == clocks;
        }
    }

    /** The cluster no longer holds every record a replay of the job's first clocks needs (retention dropped some). */
    public static final class RecordsGone extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        RecordsGone(final String message) {
            super(message);
        }
    }

    private JobReplay() {}

    /**
     * Replays the first {@code clocks} clocks of BSP job {@code job} (on topics of {@code topicPrefix}), whose
     * model after them should be {@code expected}.
     *
     * @throws RecordsGone if the cluster no longer holds every gradient of those clocks
     */
    public static Outcome run(
            final KafkaConnection connection,
            final String topicPrefix,
            final String job,
            final long clocks,
            final float[] expected,
            final Path stateDir)
            throws IOException, InterruptedException {
        final Properties client = connection.client();
        final TopicCatalog topics = connection.topics(topicPrefix);
        final Recording recording =
                Recording.of(Recorder.read(topics, client, job, RecordFilter.aggregatorFeed(clocks)));
        final JobSpec spec = recording.job();
        final long wanted = clocks * spec.getExpectedWorkers() * spec.getShards();
        final long held = workerGradients(recording);
        if (held != wanted) {
            throw new RecordsGone(topics.gradients().name() + " holds " + held + " gradients of the first "
                    + clocks + " clocks of job " + job + ", not " + wanted + " (" + spec.getExpectedWorkers()
                    + " workers x " + spec.getShards() + " shards a clock): was it trained to that clock, and did "
                    + "retention keep them?");
        }
        final String stamp = Long.toString(System.currentTimeMillis());
        final String prefix = "replay-" + stamp + ".";
        final AggregatorReplay.Outcome outcome = AggregatorReplay.run(
                recording,
                connection,
                prefix,
                "paramhub-replay-aggregator-" + stamp,
                stateDir.resolve("aggregator"),
                new AggregatorReplay.Target(clocks, expected),
                true);
        final KafkaComparison kafka =
                KafkaComparison.measure(recording, outcome, connection, prefix, outcome.gradients(), stateDir);
        return new Outcome(
                job,
                clocks,
                outcome.gradients(),
                outcome.gradientBytes(),
                outcome.seconds(),
                outcome.replayedVersion(),
                outcome.differingParameters(),
                kafka);
    }

    /**
     * The workers' gradients (of one shard and clock each) that {@code recording} holds: a host's sum counts for each
     * of its contributors.
     */
    private static long workerGradients(final Recording recording) {
        return recording.records(RecordedTopic.GRADIENTS).stream()
                .map(record -> RecordedTopic.GRADIENTS.<GradientShard>decode(record.value()))
                .mapToLong(gradient -> Math.max(1, gradient.getContributors().size()))
                .sum();
    }
}
