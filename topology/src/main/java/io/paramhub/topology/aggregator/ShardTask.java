package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.ServerTelemetry;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.client.ModelHeaders;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one processor of a shard task, a thin adapter from records to its {@link ShardEngine}: jobs
 * from {@code shard-jobs}, workers from {@code shard-membership}, plans from {@code shard-commands} and
 * raw gradients from {@code gradients}. It publishes to {@code model} and, for refused gradients, commands and
 * departures, to {@code dead-letters}; for each version it publishes, it reports to {@code server-telemetry} what the round
 * cost this aggregator instance ({@link RoundTimer}, as chosen when the task starts). A tombstone on
 * {@code shard-jobs} (a deleted job) drops the shard's state and gauges and writes a tombstone for the shard
 * on {@code model}. One processor (not one per source) so that the task's shards are decoded once
 * and shared by every record that touches them.
 *
 * <p>When the task starts on stored state (a restart, a move to another instance), the lineage of each
 * topic-mode job's shard 0 is read back from its newest {@code model} record ({@link ModelTail}), and the
 * gradients its shards held in memory are read again from {@code gradients} ({@link GradientRestore}), before
 * the first record is processed. Each shard-0 version's lineage goes to the instance's {@link LineageHistory}. A
 * shard that cannot be rebuilt so (its gradients deleted by retention) is stuck ({@link StuckShards}): its
 * gradients are dead-lettered, the task's other shards served.
 */
final class ShardTask implements Processor<String, Object, String, SpecificRecord> {

    private static final Logger log = LoggerFactory.getLogger(ShardTask.class);

    private final String gradientsTopic;
    private final String shardJobsTopic;
    private final Deserializer<GradientShard> deserializer;
    private final String modelTopic;
    private final Deserializer<ModelShard> modelDeserializer;
    private final AggregatorMetrics metrics;
    private final LineageHistory history;
    private final Function<AggregatorInstance, RoundTimer> timers;
    private ProcessorContext<String, SpecificRecord> context;
    private ShardEngine engine;
    private StuckShards stuck;
    private AggregatorInstance instance;
    private RoundTimer timer;

    ShardTask(
            final String gradientsTopic,
            final String shardJobsTopic,
            final Deserializer<GradientShard> deserializer,
            final String modelTopic,
            final Deserializer<ModelShard> modelDeserializer,
            final AggregatorMetrics metrics,
            final LineageHistory history,
            final Function<AggregatorInstance, RoundTimer> timers) {
        this.gradientsTopic = gradientsTopic;
        this.shardJobsTopic = shardJobsTopic;
        this.deserializer = deserializer;
        this.modelTopic = modelTopic;
        this.modelDeserializer = modelDeserializer;
        this.metrics = metrics;
        this.history = history;
        this.timers = timers;
    }

    @Override
    public void init(final ProcessorContext<String, SpecificRecord> context) {
        this.context = context;
        this.instance = AggregatorInstance.from(context.appConfigs());
        this.timer = timers.apply(instance);
        this.engine = new ShardEngine(
                context.getStateStore(AggregatorTopology.SHARD_JOB_STORE),
                context.getStateStore(AggregatorTopology.SHARD_STATE_STORE),
                context.getStateStore(AggregatorTopology.SHARD_MEMBER_STORE),
                context.getStateStore(AggregatorTopology.SHARD_SNAPSHOT_STORE),
                context.getStateStore(AggregatorTopology.SHARD_MODEL_STORE),
                AggregatorTopology.snapshotEveryClocks(context.appConfigs()),
                metrics,
                history);
        final long restoreFrom = engine.load();
        if (engine.loadedShards() > 0) {
            restorePending(restoreFrom);
        }
        stuck = new StuckShards(metrics);
        engine.finishRestore().forEach(stuck::add);
    }

    /**
     * Reads the task's {@code gradients} partition from {@code from} up to the committed offset again, for
     * the gradients its shards had buffered and those applied since their snapshots ({@code from} < 0: no
     * shard can need any; the position is still needed), once the lineage its shards publish is back.
     */
    private void restorePending(final long from) {
        final TopicPartition partition =
                new TopicPartition(gradientsTopic, context.taskId().partition());
        final GradientRestore restore = new GradientRestore(context.appConfigs());
        final OptionalLong committed = restore.committedOffset(partition);
        restoreLineage();
        if (committed.isEmpty()) {
            return;
        }
        engine.continueAt(committed.getAsLong());
        if (from < 0 || from >= committed.getAsLong()) {
            return;
        }
        final long started = System.nanoTime();
        final int[] counts = new int[2];
        restore.read(partition, from, committed.getAsLong(), record -> {
            counts[0]++;
            final GradientShard gradient;
            try {
                gradient = GradientDecoding.decode(deserializer, gradientsTopic, record.headers(), record.value());
            } catch (final GradientDecoding.UndecodableGradient e) {
                return;
            }
            if (engine.restoreGradient(record.key(), gradient, record.offset(), record.timestamp())) {
                counts[1]++;
            }
        });
        log.info(
                "task {}: read {} gradients of {} again (offsets {} to {}) in {} ms; clocks since the snapshots "
                        + "applied again; {} are waiting for their clock",
                context.taskId(),
                counts[0],
                partition,
                from,
                committed.getAsLong() - 1,
                (System.nanoTime() - started) / 1_000_000,
                counts[1]);
    }

    /**
     * Gives shard 0 of each topic-mode job its lineage back, from its newest {@code model} record (the task's
     * partition of {@code model}, co-partitioned with {@code gradients}), before any gradient is read again.
     */
    private void restoreLineage() {
        final List<String> keys = engine.lineageKeys();
        if (keys.isEmpty()) {
            return;
        }
        final TopicPartition partition =
                new TopicPartition(modelTopic, context.taskId().partition());
        final long started = System.nanoTime();
        final Map<String, ModelShard> newest =
                new ModelTail(context.appConfigs()).newest(partition, keys, modelDeserializer);
        for (final String key : keys) {
            final ModelShard model = newest.get(key);
            if (model == null) {
                log.error(
                        "shard {}: no record of it on {} to restore its lineage from; it starts empty, and gradients "
                                + "of examples trained before are not refused as DUPLICATE",
                        key,
                        partition);
            } else {
                engine.restoreLineage(key, model);
            }
        }
        log.info(
                "task {}: lineage of {} shard(s) read back from {} in {} ms",
                context.taskId(),
                newest.size(),
                partition,
                (System.nanoTime() - started) / 1_000_000);
    }

    @Override
    public void close() {
        if (engine != null) {
            engine.close();
        }
    }

    @Override
    public void process(final Record<String, Object> record) {
        timer.begin();
        try {
            dispatch(record);
        } finally {
            timer.end(record.key());
        }
    }

    private void dispatch(final Record<String, Object> record) {
        final String topic = context.recordMetadata().map(RecordMetadata::topic).orElse(gradientsTopic);
        if (topic.equals(gradientsTopic)) {
            gradient(record);
            return;
        }
        final Object value = record.value();
        if (value == null) {
            if (topic.equals(shardJobsTopic) && record.key() != null) {
                deleteShard(record.key(), record.timestamp());
            }
            return;
        }
        final List<ModelShard> published;
        // control records count at their own time, not stream time: a heartbeat read late must not stamp
        // its worker, or the shard's heartbeat clock, with the time of gradients read before it
        if (value instanceof JobSpec spec) {
            published = stuck.passOver(record.key(), spec)
                    ? List.of()
                    : engine.startJob(record.key(), spec, record.timestamp());
            if (!published.isEmpty()) {
                // workers join at the model as committed: version 0 is worth a commit of its own
                context.commit();
            }
        } else if (value instanceof WorkerStatus status) {
            published = control(record, engine.memberEvent(record.key(), status, record.timestamp()));
        } else if (value instanceof ResourceCommand command) {
            published = control(record, engine.planEvent(record.key(), command, record.timestamp()));
        } else {
            return;
        }
        publish(published, record.timestamp());
    }

    /**
     * What a control record led to: its versions, and, when it was refused, a dead letter from shard 0 alone (each
     * shard of the job reads the same membership record and refuses it alike).
     */
    private List<ModelShard> control(final Record<String, Object> record, final ShardEngine.Outcome outcome) {
        final String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("");
        outcome.rejection()
                .filter(rejection -> ShardEngine.shardOf(record.key()) == 0)
                .ifPresent(rejection -> deadLetter(record, topic, null, rejection));
        return outcome.published();
    }

    /** A deleted job's shard: state and gauges dropped, a tombstone on {@code model} so compaction removes it. */
    private void deleteShard(final String key, final long timestamp) {
        final boolean held = engine.deleteJob(key);
        stuck.forget(key);
        metrics.forget(key);
        timer.forget(key);
        context.forward(new Record<String, SpecificRecord>(key, null, timestamp), AggregatorTopology.MODEL_SINK);
        context.commit();
        log.info("shard {} of a deleted job dropped (held state here: {})", key, held);
    }

    /** Raw {@code gradients} record → decoded, checked, applied by the engine; refused ones to {@code dead-letters}. */
    private void gradient(final Record<String, Object> record) {
        final byte[] bytes = (byte[]) record.value();
        final GradientShard gradient;
        try {
            gradient = GradientDecoding.decode(deserializer, gradientsTopic, record.headers(), bytes);
        } catch (final GradientDecoding.UndecodableGradient e) {
            deadLetter(record, gradientsTopic, bytes, e.rejection());
            return;
        }
        final String key = ShardKeys.shard(gradient.getJob(), gradient.getShard());
        if (!key.equals(record.key())) {
            deadLetter(
                    record,
                    gradientsTopic,
                    bytes,
                    new Rejection(
                            DeadLetterReason.MALFORMED,
                            "record key '" + record.key() + "' does not match the value's job/shard '" + key + "'"));
            return;
        }
        final Optional<Rejection> stuckShard = stuck.refusal(key);
        if (stuckShard.isPresent()) {
            deadLetter(record, gradientsTopic, bytes, stuckShard.get());
            return;
        }
        final long offset = context.recordMetadata().map(RecordMetadata::offset).orElse(-1L);
        final ShardEngine.Outcome outcome =
                engine.gradient(key, gradient, offset, Math.max(record.timestamp(), context.currentStreamTimeMs()));
        outcome.rejection().ifPresent(rejection -> deadLetter(record, gradientsTopic, bytes, rejection));
        publish(outcome.published(), record.timestamp());
    }

    /**
     * Forwards new model versions. Workers read them before the transaction commits, so a round does not
     * wait for a commit; the commit interval ({@code commit.interval.ms}) paces the commits, which only
     * readers of committed records ({@code read_committed}: your services, record, the dashboard) wait for.
     */
    private void publish(final List<ModelShard> shards, final long timestamp) {
        for (final ModelShard shard : shards) {
            metrics.model(shard);
            final String key = ShardKeys.shard(shard.getJob(), shard.getShard());
            final RoundTimer.Round round = timer.round(key);
            context.forward(
                    new Record<String, SpecificRecord>(key, shard, timestamp, ModelHeaders.of(shard.getMinClock())),
                    AggregatorTopology.MODEL_SINK);
            final ServerTelemetry telemetry = ServerTelemetry.newBuilder()
                    .setInstance(instance.id())
                    .setJob(shard.getJob())
                    .setShard(shard.getShard())
                    .setPartition(context.taskId().partition())
                    .setVersion(shard.getVersion())
                    .setBusyMs(round.busyMs())
                    .setEmulatedMs(round.emulatedMs())
                    .setRoundMs(round.totalMs())
                    .setTimestamp(Instant.now())
                    .build();
            context.forward(
                    new Record<String, SpecificRecord>(instance.id(), telemetry, timestamp),
                    AggregatorTopology.SERVER_TELEMETRY_SINK);
        }
    }

    /** Sets {@code record} of {@code topic} aside with its {@code bytes} (null for a control record, decoded already). */
    private void deadLetter(
            final Record<String, Object> record, final String topic, final byte[] bytes, final Rejection rejection) {
        final DeadLetter letter = rejection.letter(context, topic, bytes, record.timestamp());
        log.warn(
                "dead-lettered topic: {}, partition: {}, offset: {}, reason: {}: {}",
                topic,
                letter.getPartition(),
                letter.getOffset(),
                rejection.reason(),
                rejection.message());
        metrics.deadLetter(rejection.reason());
        context.forward(record.withValue((SpecificRecord) letter), AggregatorTopology.DEAD_LETTER_SINK);
    }
}
