package io.paramhub.topology;

import io.paramhub.avro.ActivationBatch;
import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.ServerTelemetry;
import io.paramhub.avro.ShardPlacement;
import io.paramhub.avro.WorkerStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Every topic ParamHub reads or writes, named with a common prefix ({@code paramhub.} by default).
 *
 * <p>{@code shard-jobs}, {@code shard-membership} and {@code shard-commands} are the aggregator's own:
 * {@code jobs} and {@code membership} fanned out to one record per shard, and {@code commands} to
 * shard 0, keyed and partitioned like {@code gradients}, so each shard's task learns its job, its live
 * workers and (shard 0) the orchestrator's plan.
 *
 * <p>{@code server-telemetry} (what each aggregator instance spent per shard-round) and {@code placements}
 * (the orchestrator's versioned placement of shard partitions on aggregator instances) have one partition
 * each: the orchestrator compares every instance with the others, and the aggregators follow one placement.
 */
public record TopicCatalog(
        String prefix,
        Topic<String, JobSpec> jobs,
        Topic<String, GradientShard> gradients,
        Topic<String, ModelShard> model,
        Topic<String, IterationTelemetry> telemetry,
        Topic<String, ResourceCommand> commands,
        Topic<String, WorkerStatus> membership,
        Topic<String, DeadLetter> deadLetters,
        Topic<String, JobSpec> shardJobs,
        Topic<String, WorkerStatus> shardMembership,
        Topic<String, ResourceCommand> shardCommands,
        Topic<String, ActivationBatch> activations,
        Topic<String, ActivationBatch> activationGradients,
        Topic<String, ServerTelemetry> serverTelemetry,
        Topic<String, ShardPlacement> placements) {

    public static final String DEFAULT_PREFIX = "paramhub.";

    /**
     * The {@code max.message.bytes} of {@code jobs}: 65 MiB, room for the version 0 that an external model's spec
     * carries (at most {@code ExternalModels.MAX_PARAMETERS} = 2^24 float32 values) and the rest of the spec.
     */
    public static final int JOBS_MAX_MESSAGE_BYTES = 4 * (1 << 24) + (1 << 20);

    public static TopicCatalog create(final String prefix, final SerdeFactory serdes) {
        return new TopicCatalog(
                prefix,
                new Topic<>(prefix + "jobs", Serdes.String(), serdes.valueSerde(JobSpec.class)),
                new Topic<>(prefix + "gradients", Serdes.String(), serdes.valueSerde(GradientShard.class)),
                new Topic<>(prefix + "model", Serdes.String(), serdes.valueSerde(ModelShard.class)),
                new Topic<>(prefix + "telemetry", Serdes.String(), serdes.valueSerde(IterationTelemetry.class)),
                new Topic<>(prefix + "commands", Serdes.String(), serdes.valueSerde(ResourceCommand.class)),
                new Topic<>(prefix + "membership", Serdes.String(), serdes.valueSerde(WorkerStatus.class)),
                new Topic<>(prefix + "dead-letters", Serdes.String(), serdes.valueSerde(DeadLetter.class)),
                new Topic<>(prefix + "shard-jobs", Serdes.String(), serdes.valueSerde(JobSpec.class)),
                new Topic<>(prefix + "shard-membership", Serdes.String(), serdes.valueSerde(WorkerStatus.class)),
                new Topic<>(prefix + "shard-commands", Serdes.String(), serdes.valueSerde(ResourceCommand.class)),
                new Topic<>(prefix + "activations", Serdes.String(), serdes.valueSerde(ActivationBatch.class)),
                new Topic<>(prefix + "activation-gradients", Serdes.String(), serdes.valueSerde(ActivationBatch.class)),
                new Topic<>(prefix + "server-telemetry", Serdes.String(), serdes.valueSerde(ServerTelemetry.class)),
                new Topic<>(prefix + "placements", Serdes.String(), serdes.valueSerde(ShardPlacement.class)));
    }

    /** How each topic is laid out when {@link TopicProvisioner} creates it, with ParamHub's default retentions. */
    public List<TopicLayout> layouts(final int shardPartitions, final int otherPartitions) {
        return layouts(shardPartitions, otherPartitions, TopicRetentions.defaults());
    }

    /** How each topic is laid out when {@link TopicProvisioner} creates it, the {@code delete} ones kept as given. */
    public List<TopicLayout> layouts(
            final int shardPartitions, final int otherPartitions, final TopicRetentions retentions) {
        return List.of(
                // an external model's version 0 travels with its spec
                TopicLayout.compacted(jobs.name(), 1).withMaxMessageBytes(JOBS_MAX_MESSAGE_BYTES),
                deleted(gradients, shardPartitions, retentions),
                TopicLayout.compacted(model.name(), shardPartitions),
                TopicLayout.compacted(shardJobs.name(), shardPartitions),
                deleted(shardMembership, shardPartitions, retentions),
                deleted(shardCommands, shardPartitions, retentions),
                deleted(telemetry, otherPartitions, retentions),
                TopicLayout.compacted(commands.name(), 1),
                // liveness is judged by membership record times: the broker's, so that none can be post-dated
                TopicLayout.compacted(membership.name(), 1).withBrokerTimestamps(),
                deleted(deadLetters, otherPartitions, retentions),
                // a hybrid job's replica keys its micro-batches job/replica: spread like the shards
                deleted(activations, shardPartitions, retentions),
                deleted(activationGradients, shardPartitions, retentions),
                // one partition each: one orchestrator task sees every aggregator instance and owns the placement
                deleted(serverTelemetry, 1, retentions),
                TopicLayout.compacted(placements.name(), 1));
    }

    /** Every topic of the catalog. */
    public List<Topic<String, ?>> all() {
        return List.of(
                jobs,
                gradients,
                model,
                telemetry,
                commands,
                membership,
                deadLetters,
                shardJobs,
                shardMembership,
                shardCommands,
                activations,
                activationGradients,
                serverTelemetry,
                placements);
    }

    /** The topics the aggregator reads or writes, its Streams handlers' dead letters included. */
    public List<Topic<String, ?>> aggregatorTopics() {
        return List.of(
                jobs,
                gradients,
                model,
                commands,
                membership,
                deadLetters,
                shardJobs,
                shardMembership,
                shardCommands,
                serverTelemetry,
                placements);
    }

    /** The topics the orchestrator reads or writes, its Streams handlers' dead letters included. */
    public List<Topic<String, ?>> orchestratorTopics() {
        return List.of(jobs, telemetry, commands, serverTelemetry, placements, deadLetters);
    }

    /** The topics a worker reads or writes (users' data topics are theirs, and not here). */
    public List<Topic<String, ?>> workerTopics() {
        return List.of(jobs, gradients, model, telemetry, membership, deadLetters, activations, activationGradients);
    }

    /**
     * What ParamHub expects of each of {@code used} when it exists ({@link TopicCheck}): the layout it would create
     * it with, under {@code replication}; {@code telemetry}, {@code server-telemetry} and {@code dead-letters} are
     * only observed.
     */
    public List<TopicExpectation> expectations(final List<Topic<String, ?>> used, final TopicReplication replication) {
        // partitions play no part in the check (commonPartitionCount checks those that must agree)
        final Map<String, TopicLayout> byName = new HashMap<>();
        layouts(1, 1).forEach(layout -> byName.put(layout.name(), layout));
        final Set<String> observed = Set.of(telemetry.name(), serverTelemetry.name(), deadLetters.name());
        return used.stream()
                .map(topic ->
                        new TopicExpectation(byName.get(topic.name()), replication, observed.contains(topic.name())))
                .toList();
    }

    /** A topic's name without the prefix: {@code gradients}, {@code dead-letters}, ... */
    public String role(final Topic<?, ?> topic) {
        return topic.name().substring(prefix.length());
    }

    private TopicLayout deleted(final Topic<?, ?> topic, final int partitions, final TopicRetentions retentions) {
        return TopicLayout.deleted(topic.name(), partitions, retentions.of(role(topic)));
    }

    /** Topics that must have the same partition count, because one task reads a shard from each. */
    public List<String> coPartitioned() {
        return List.of(gradients.name(), shardJobs.name(), shardMembership.name(), shardCommands.name(), model.name());
    }

    /**
     * Topics one task reads together to fan jobs and membership out to shards: one partition each,
     * so that the task that knows a job also sees all of its workers.
     */
    public List<String> control() {
        return List.of(jobs.name(), membership.name(), commands.name());
    }
}
