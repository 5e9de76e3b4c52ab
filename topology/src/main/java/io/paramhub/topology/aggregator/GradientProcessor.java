package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ShardState;
import io.paramhub.ml.GradientSum;
import io.paramhub.ml.Optimizer;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.jobs.JobSpecs;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The BSP barrier of one shard: reads raw records from {@code gradients}, buffers them per clock
 * until every expected worker's gradient is in, then sums them in worker order, applies the job's
 * optimizer to the mean and publishes the new {@code ModelShard} to {@code model}.
 *
 * <p>Anything that cannot be applied (not Avro, unknown schema or job, wrong length, NaN or
 * infinite values, a clock already applied or a gradient already buffered) goes to
 * {@code dead-letters} with its original bytes and a reason; training goes on.
 */
final class GradientProcessor implements Processor<String, byte[], String, SpecificRecord> {

    private static final Logger log = LoggerFactory.getLogger(GradientProcessor.class);

    private final Deserializer<GradientShard> deserializer;
    private final Map<String, Optimizer> optimizers = new HashMap<>();
    private ProcessorContext<String, SpecificRecord> context;
    private KeyValueStore<String, JobSpec> jobs;
    private KeyValueStore<String, ShardState> states;
    private PendingGradients pending;

    GradientProcessor(final Deserializer<GradientShard> deserializer) {
        this.deserializer = deserializer;
    }

    @Override
    public void init(final ProcessorContext<String, SpecificRecord> context) {
        this.context = context;
        this.jobs = context.getStateStore(AggregatorTopology.SHARD_JOB_STORE);
        this.states = context.getStateStore(AggregatorTopology.SHARD_STATE_STORE);
        this.pending = new PendingGradients(context.getStateStore(AggregatorTopology.PENDING_GRADIENT_STORE));
    }

    @Override
    public void process(final Record<String, byte[]> record) {
        final GradientShard gradient;
        try {
            gradient = GradientDecoding.decode(deserializer, topic(), record);
        } catch (final GradientDecoding.UndecodableGradient e) {
            deadLetter(record, e.rejection());
            return;
        }
        final String key = ShardKeys.shard(gradient.getJob(), gradient.getShard());
        if (!key.equals(record.key())) {
            deadLetter(record, new Rejection(DeadLetterReason.MALFORMED,
                "record key '" + record.key() + "' does not match the value's job/shard '" + key + "'"));
            return;
        }
        final JobSpec spec = jobs.get(key);
        final ShardState state = states.get(key);
        if (spec == null || state == null) {
            deadLetter(record, new Rejection(DeadLetterReason.UNKNOWN_JOB,
                "no job '" + gradient.getJob() + "' with shard " + gradient.getShard() + " is known"));
            return;
        }
        final Optional<Rejection> rejection = GradientChecks.check(spec, gradient);
        if (rejection.isPresent()) {
            deadLetter(record, rejection.get());
            return;
        }
        if (gradient.getClock() < state.getNextClock()) {
            deadLetter(record, new Rejection(DeadLetterReason.DUPLICATE, "clock " + gradient.getClock()
                + " of worker " + gradient.getWorker() + " is already applied; shard is at clock "
                + state.getNextClock()));
            return;
        }
        if (pending.contains(gradient)) {
            deadLetter(record, new Rejection(DeadLetterReason.DUPLICATE, "a gradient of worker "
                + gradient.getWorker() + " for clock " + gradient.getClock() + " is already buffered"));
            return;
        }
        pending.add(gradient);
        applyCompleteClocks(record, spec, state);
    }

    /** Applies clocks in order for as long as the next one has every expected gradient. */
    private void applyCompleteClocks(final Record<String, byte[]> record, final JobSpec spec, final ShardState from) {
        ShardState state = from;
        while (true) {
            final List<GradientShard> clock = pending.ofClock(spec.getJob(), state.getShard(), state.getNextClock());
            if (clock.size() < spec.getExpectedWorkers()) {
                return;
            }
            final GradientSum sum = new GradientSum(JobSpecs.layout(spec).length(state.getShard()));
            for (final GradientShard gradient : clock) {
                sum.add(FloatPacking.unpack(gradient.getValues()), gradient.getSampleCount());
            }
            final ShardState stepped = ShardUpdate.apply(state, optimizer(spec), sum.mean());
            final long nextClock = state.getNextClock() + 1;
            state = ShardState.newBuilder(stepped).setNextClock(nextClock).setMinClock(nextClock).build();
            pending.deleteClock(spec.getJob(), state.getShard(), nextClock - 1);
            states.put(record.key(), state);
            context.forward(record.withValue((SpecificRecord) ShardUpdate.published(spec, state, Instant.now())),
                AggregatorTopology.MODEL_SINK);
        }
    }

    private Optimizer optimizer(final JobSpec spec) {
        final String id = spec.getJob() + "@" + spec.getCreatedAt().toEpochMilli();
        return optimizers.computeIfAbsent(id, ignored -> JobSpecs.optimizer(spec));
    }

    private void deadLetter(final Record<String, byte[]> record, final Rejection rejection) {
        final RecordMetadata metadata = context.recordMetadata().orElse(null);
        final int partition = metadata == null ? -1 : metadata.partition();
        final long offset = metadata == null ? -1 : metadata.offset();
        log.warn("dead-lettered gradient topic: {}, partition: {}, offset: {}, reason: {}: {}",
            topic(), partition, offset, rejection.reason(), rejection.message());
        final DeadLetter letter = DeadLetter.newBuilder()
            .setSourceTopic(topic())
            .setPartition(partition)
            .setOffset(offset)
            .setReason(rejection.reason())
            .setError(rejection.message())
            .setOriginalBytes(record.value() == null ? null : ByteBuffer.wrap(record.value()))
            .setTimestamp(Instant.now())
            .build();
        context.forward(record.withValue((SpecificRecord) letter), AggregatorTopology.DEAD_LETTER_SINK);
    }

    private String topic() {
        return context.recordMetadata().map(RecordMetadata::topic).orElse("gradients");
    }
}
