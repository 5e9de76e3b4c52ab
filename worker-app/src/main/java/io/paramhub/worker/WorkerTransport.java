package io.paramhub.worker;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.ml.TopicSpec;
import io.paramhub.topology.jobs.StagePlan;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Everything a {@link Worker} says and hears, behind one seam: reads its job from {@code jobs} and the model
 * from {@code model}; publishes to {@code gradients}, {@code telemetry} and {@code membership} (a topic-mode
 * worker: in one transaction a clock, with its input offsets and bad examples on {@code dead-letters}); opens a
 * pipeline stage's link to its neighbours on {@code activations} and {@code activation-gradients}, and a
 * topic-mode worker's feed of examples. The Kafka
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

    /**
     * From now on sends what a clock produces (gradients, telemetry, bad examples) in one transaction a clock, as
     * {@code transactionalId}, after fencing any earlier producer of that id and aborting its open transaction; the
     * membership announcements stay outside. For a topic-mode worker, whose input offsets commit with its output.
     */
    void useTransactions(String transactionalId);

    /** Opens a clock's transaction; nothing without transactions. */
    void beginClock();

    /**
     * Ends a clock: with transactions, commits its transaction with {@code offsets}, the input positions of
     * {@code group} (none for a worker without input topic); without, sends what is buffered now.
     */
    void endClock(Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata group);

    /** Sets a training example that cannot be trained on aside on {@code dead-letters}, keyed {@code key}. */
    void setAside(String key, DeadLetter letter);

    /**
     * Sets a {@code model} record the worker refused ({@code ModelBounds}: it cannot be the aggregator's) aside on
     * {@code dead-letters}, reason {@code INVALID_MODEL}, with the {@code problem}; outside any clock's transaction.
     * Nothing by default.
     */
    default void refuseModel(final ModelShard shard, final String problem) {}

    /**
     * The training examples of worker {@code workerIndex} of {@code spec}'s workers, from its partitions of the
     * data topic {@code topic}, in the consumer group {@code group}.
     */
    ExampleFeed examples(JobSpec spec, TopicSpec topic, int workerIndex, String group);

    /**
     * The host's sum ({@link HostSum}) of {@code job}'s workers in this process, if the process declared one
     * ({@link WorkerClients#sumOnHost}); null by default.
     */
    default HostSum hostSum(final String job) {
        return null;
    }

    /** Throws if an earlier send failed. */
    void failIfSendFailed();

    @Override
    void close();
}
