package io.paramhub.worker;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.topology.jobs.StagePlan;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Everything a {@link Worker} says and hears, behind one seam: reads its job from {@code jobs} and the model
 * from {@code model}; publishes to {@code gradients}, {@code telemetry} and {@code membership}; opens a
 * pipeline stage's link to its neighbours on {@code activations} and {@code activation-gradients}. The Kafka
 * implementation ({@link KafkaWorkerTransport}) is what runs; tests drive a worker with an in-memory one.
 */
interface WorkerTransport extends AutoCloseable {

    /** The spec of {@code job}, waiting up to {@code timeout} for it to be published. */
    JobSpec awaitJob(String job, Duration timeout);

    /**
     * A feed of the model's committed records from the beginning, of the partitions of {@code shardKeys}
     * (every partition when null): what a worker joins at.
     */
    ModelFeed readCommittedModel(Collection<String> shardKeys);

    /**
     * A feed of the model's records from {@code from} on, without waiting for their commit; under BSP
     * ({@code wholeVersions}) its fetches wait for {@code versionBytes}, a version of the values it reads.
     */
    ModelFeed readModel(
            Collection<String> shardKeys, Map<TopicPartition, Long> from, boolean wholeVersions, int versionBytes);

    /** A pipeline stage worker's link to the neighbouring stages of its replica. */
    ActivationExchange exchange(JobSpec spec, StagePlan plan, int workerIndex, String workerId);

    /** Sends one shard of a worker's gradient, serialized at once. */
    void publishGradient(GradientShard gradient);

    /** Sends the telemetry of a worker's clock. */
    void publishTelemetry(IterationTelemetry telemetry);

    /** Sends a worker's membership announcement. */
    void announce(WorkerStatus status);

    /** Sends what is buffered now rather than after the linger. */
    void flush();

    /** Throws if an earlier send failed. */
    void failIfSendFailed();

    @Override
    void close();
}
