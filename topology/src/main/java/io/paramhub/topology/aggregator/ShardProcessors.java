package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.ModelShard;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The three processors of a shard task, thin adapters from records to {@link ShardEngine}: jobs
 * from {@code shard-jobs}, workers from {@code shard-membership}, raw gradients from
 * {@code gradients}. They publish to {@code model} and, for gradients, to {@code dead-letters}.
 */
final class ShardProcessors {

    private static final Logger log = LoggerFactory.getLogger(ShardProcessors.class);

    private ShardProcessors() {
    }

    private static ShardEngine engine(final ProcessorContext<?, ?> context, final AggregatorMetrics metrics) {
        return new ShardEngine(context.getStateStore(AggregatorTopology.SHARD_JOB_STORE),
            context.getStateStore(AggregatorTopology.SHARD_STATE_STORE),
            context.getStateStore(AggregatorTopology.SHARD_MEMBER_STORE),
            new PendingGradients(context.getStateStore(AggregatorTopology.PENDING_GRADIENT_STORE)),
            metrics);
    }

    private static long now(final ProcessorContext<?, ?> context, final long timestamp) {
        return Math.max(timestamp, context.currentStreamTimeMs());
    }

    /**
     * Forwards new model versions and asks for a commit at once: under exactly-once they are visible
     * only when committed, and the workers wait for them; the commit interval is left for the rest.
     */
    private static void publish(final ProcessorContext<String, SpecificRecord> context, final List<ModelShard> shards,
                                final long timestamp, final AggregatorMetrics metrics) {
        for (final ModelShard shard : shards) {
            metrics.model(shard);
            context.forward(new Record<String, SpecificRecord>(shard.getJob() + "/" + shard.getShard(), shard,
                timestamp), AggregatorTopology.MODEL_SINK);
        }
        if (!shards.isEmpty()) {
            context.commit();
        }
    }

    /** What a shard does with one record of a control topic; returns the model versions to publish. */
    @FunctionalInterface
    interface ControlStep<V> {
        List<ModelShard> apply(ShardEngine engine, String key, V value, long timestamp);
    }

    /**
     * {@code shard-jobs} → the shard starts and publishes version 0 ({@link ShardEngine#startJob});
     * {@code shard-membership} → the shard's live set, where a departure may complete a clock
     * ({@link ShardEngine#memberEvent}).
     */
    static final class Control<V> implements Processor<String, V, String, SpecificRecord> {
        private final AggregatorMetrics metrics;
        private final ControlStep<V> step;
        private ProcessorContext<String, SpecificRecord> context;
        private ShardEngine engine;

        Control(final AggregatorMetrics metrics, final ControlStep<V> step) {
            this.metrics = metrics;
            this.step = step;
        }

        @Override
        public void init(final ProcessorContext<String, SpecificRecord> context) {
            this.context = context;
            this.engine = engine(context, metrics);
        }

        @Override
        public void process(final Record<String, V> record) {
            if (record.value() != null) {
                // the record's own time, not stream time: a heartbeat read late must not stamp its
                // worker, or the shard's heartbeat clock, with the time of gradients read before it
                publish(context, step.apply(engine, record.key(), record.value(), record.timestamp()),
                    record.timestamp(), metrics);
            }
        }
    }

    /**
     * Raw {@code gradients} → decoded, checked, applied by the engine; refused ones to
     * {@code dead-letters}.
     */
    static final class GradientAggregator implements Processor<String, byte[], String, SpecificRecord> {
        private final Deserializer<GradientShard> deserializer;
        private final AggregatorMetrics metrics;
        private ProcessorContext<String, SpecificRecord> context;
        private ShardEngine engine;

        GradientAggregator(final Deserializer<GradientShard> deserializer, final AggregatorMetrics metrics) {
            this.deserializer = deserializer;
            this.metrics = metrics;
        }

        @Override
        public void init(final ProcessorContext<String, SpecificRecord> context) {
            this.context = context;
            this.engine = engine(context, metrics);
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
            final String key = gradient.getJob() + "/" + gradient.getShard();
            if (!key.equals(record.key())) {
                deadLetter(record, new Rejection(io.paramhub.avro.DeadLetterReason.MALFORMED,
                    "record key '" + record.key() + "' does not match the value's job/shard '" + key + "'"));
                return;
            }
            final ShardEngine.Outcome outcome = engine.gradient(key, gradient, now(context, record.timestamp()));
            outcome.rejection().ifPresent(rejection -> deadLetter(record, rejection));
            publish(context, outcome.published(), record.timestamp(), metrics);
        }

        private void deadLetter(final Record<String, byte[]> record, final Rejection rejection) {
            final RecordMetadata metadata = context.recordMetadata().orElse(null);
            final int partition = metadata == null ? -1 : metadata.partition();
            final long offset = metadata == null ? -1 : metadata.offset();
            log.warn("dead-lettered gradient topic: {}, partition: {}, offset: {}, reason: {}: {}",
                topic(), partition, offset, rejection.reason(), rejection.message());
            metrics.deadLetter(rejection.reason());
            final DeadLetter letter = DeadLetter.newBuilder()
                .setSourceTopic(topic())
                .setPartition(partition)
                .setOffset(offset)
                .setReason(rejection.reason())
                .setError(rejection.message())
                .setOriginalBytes(record.value() == null ? null : ByteBuffer.wrap(record.value()))
                .setTimestamp(Instant.ofEpochMilli(record.timestamp()))
                .build();
            context.forward(record.withValue((SpecificRecord) letter), AggregatorTopology.DEAD_LETTER_SINK);
        }

        private String topic() {
            return context.recordMetadata().map(RecordMetadata::topic).orElse("gradients");
        }
    }
}
