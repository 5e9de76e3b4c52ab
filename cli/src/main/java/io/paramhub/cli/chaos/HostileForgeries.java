package io.paramhub.cli.chaos;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.ml.ShardLayout;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.WorkerIds;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;

/**
 * The forged but well-formed records a hostile tenant of a chaos run writes at the BSP job, as issue 29's item 2
 * validates them (the forgeries of {@code ForgedControlRecordsIT}): model versions of the job no aggregator
 * publishes ({@code model}), orchestrator commands no orchestrator issues ({@code commands}), a departure of a live
 * worker at a clock it has passed and a join of a worker beyond the job's count ({@code membership}), and a spec
 * of the tenant's own job ({@value #TENANT_JOB}) no valid spec has ({@code jobs}). Each must be dead-lettered with
 * its reason, none applied.
 */
final class HostileForgeries {

    /** The tenant's own job: the name its invalid spec is submitted under. */
    static final String TENANT_JOB = "chaos-hostile";

    /** A forgery, and how to make its record (stamped when made, as a real writer's would be). */
    record Planned(Forgery forgery, String topic, String key, Supplier<byte[]> value) {}

    private final TopicCatalog topics;
    private final JobSpec bsp;

    HostileForgeries(final TopicCatalog topics, final JobSpec bsp) {
        this.topics = topics;
        this.bsp = bsp;
    }

    JobSpec bsp() {
        return bsp;
    }

    /** The forgeries aimed at the BSP job, and the tenant's invalid spec. */
    static List<Forgery> kinds(final JobSpec bsp) {
        final String beyond = WorkerIds.of(bsp.getExpectedWorkers());
        return List.of(
                new Forgery("model-version-max", DeadLetterReason.INVALID_MODEL, "version " + Long.MAX_VALUE, true),
                new Forgery("model-min-clock-huge", DeadLetterReason.INVALID_MODEL, "minClock 1000000000000", true),
                new Forgery("model-shards-2e9", DeadLetterReason.INVALID_MODEL, "shard count 2000000000", true),
                new Forgery("command-empty-speeds", DeadLetterReason.INVALID_COMMAND, "speeds are empty", false),
                new Forgery("command-max-epoch", DeadLetterReason.INVALID_COMMAND, "epoch " + Long.MAX_VALUE, false),
                new Forgery("command-negative-share", DeadLetterReason.INVALID_COMMAND, "batch share -0.5", false),
                new Forgery("command-huge-threads", DeadLetterReason.INVALID_COMMAND, "threads 1000000", false),
                new Forgery(
                        "left-of-live-worker",
                        DeadLetterReason.STALE,
                        "LEFT of " + WorkerIds.of(bsp.getExpectedWorkers() - 1) + " at clock 0",
                        false),
                new Forgery("join-beyond-count", DeadLetterReason.UNKNOWN_WORKER, "'" + beyond + "'", false),
                new Forgery("invalid-job-spec", DeadLetterReason.INVALID_JOB, "invalid job " + TENANT_JOB, false));
    }

    /** Every forgery of {@link #kinds}, in that order, with its topic, key and record. */
    List<Planned> plan() {
        final Map<String, Forgery> byKind = new HashMap<>();
        kinds(bsp).forEach(forgery -> byKind.put(forgery.kind(), forgery));
        final String job = bsp.getJob();
        final String last = WorkerIds.of(bsp.getExpectedWorkers() - 1);
        final String beyond = WorkerIds.of(bsp.getExpectedWorkers());
        return List.of(
                model(byKind.get("model-version-max"), 0, () -> model(0).setVersion(Long.MAX_VALUE)),
                model(byKind.get("model-min-clock-huge"), 1, () -> model(1).setMinClock(1_000_000_000_000L)),
                model(byKind.get("model-shards-2e9"), 0, () -> model(0).setShards(2_000_000_000)),
                command(byKind.get("command-empty-speeds"), () -> command(0, 1.0, 1, Map.of())),
                command(byKind.get("command-max-epoch"), () -> command(Long.MAX_VALUE, 1.0, 1, speeds())),
                command(byKind.get("command-negative-share"), () -> command(0, -0.5, 1, speeds())),
                command(byKind.get("command-huge-threads"), () -> command(0, 0.5, 1_000_000, speeds())),
                planned(
                        byKind.get("left-of-live-worker"),
                        topics.membership(),
                        ShardKeys.worker(job, last),
                        () -> member(last, WorkerState.LEFT)),
                planned(
                        byKind.get("join-beyond-count"),
                        topics.membership(),
                        ShardKeys.worker(job, beyond),
                        () -> member(beyond, WorkerState.JOINED)),
                planned(
                        byKind.get("invalid-job-spec"),
                        topics.jobs(),
                        TENANT_JOB,
                        () -> JobSpec.newBuilder(bsp)
                                .setJob(TENANT_JOB)
                                .setShards(2_000_000_000)
                                .setCreatedAt(Instant.now())
                                .build()));
    }

    /** Shard {@code shard}'s record as an aggregator of the job could write it at version 1. */
    private ModelShard.Builder model(final int shard) {
        final ShardLayout layout = JobSpecs.layout(bsp);
        return ModelShard.newBuilder()
                .setJob(bsp.getJob())
                .setShard(shard)
                .setShards(bsp.getShards())
                .setFirstParameter(layout.first(shard))
                .setVersion(1)
                .setMinClock(1)
                .setClocks(Map.of())
                .setValues(FloatPacking.pack(new float[layout.length(shard)]))
                .setUpdatedAt(Instant.now());
    }

    private Planned model(final Forgery forgery, final int shard, final Supplier<ModelShard.Builder> record) {
        return planned(
                forgery,
                topics.model(),
                ShardKeys.shard(bsp.getJob(), shard),
                () -> record.get().build());
    }

    private Map<String, Double> speeds() {
        final Map<String, Double> speeds = new HashMap<>();
        for (int i = 0; i < bsp.getExpectedWorkers(); i++) {
            speeds.put(WorkerIds.of(i), 100.0);
        }
        return speeds;
    }

    private ResourceCommand command(
            final long epoch, final double share, final int threads, final Map<String, Double> speeds) {
        return ResourceCommand.newBuilder()
                .setJob(bsp.getJob())
                .setWorker(WorkerIds.of(0))
                .setEpoch(epoch)
                .setThreads(threads)
                .setBatchShare(share)
                .setReason("forged")
                .setSpeeds(speeds)
                .setIssuedAt(Instant.now())
                .build();
    }

    private Planned command(final Forgery forgery, final Supplier<ResourceCommand> command) {
        return planned(forgery, topics.commands(), ShardKeys.worker(bsp.getJob(), WorkerIds.of(0)), command);
    }

    /** A membership record of {@code worker} at clock 0, stamped now as a worker would stamp it. */
    private WorkerStatus member(final String worker, final WorkerState state) {
        return WorkerStatus.newBuilder()
                .setJob(bsp.getJob())
                .setWorker(worker)
                .setState(state)
                .setClock(0)
                .setTimestamp(Instant.now())
                .build();
    }

    private static <V extends SpecificRecord> Planned planned(
            final Forgery forgery, final Topic<String, V> topic, final String key, final Supplier<V> record) {
        return new Planned(
                forgery,
                topic.name(),
                key,
                () -> topic.valueSerde().serializer().serialize(topic.name(), record.get()));
    }
}
