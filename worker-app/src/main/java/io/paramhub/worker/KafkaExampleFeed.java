package io.paramhub.worker;

import io.paramhub.ml.TopicSpec;
import io.paramhub.topology.ClientProperties;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A topic-mode worker's {@link ExampleFeed} over Kafka: a consumer of its partitions of the data topic (partition
 * p belongs to worker p mod N), assigned rather than subscribed, seen {@code read_committed}, in the consumer
 * group its transactional producer commits offsets for. It starts after the offsets last committed (with the clock
 * and the examples trained in their metadata) or at the beginning, and takes examples round robin across its
 * partitions, each partition's in offset order, up to each partition's end offset when the job has them and up
 * to this worker's part of {@code max-examples} when it has that. Reads the data topic; writes nothing.
 */
final class KafkaExampleFeed implements ExampleFeed {

    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

    private final TopicSpec spec;
    private final ExampleDecoder decoder;
    private final int inputs;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> owned;
    private final Map<TopicPartition, ArrayDeque<ConsumerRecord<byte[], byte[]>>> buffered = new LinkedHashMap<>();
    private final Map<TopicPartition, Long> next = new HashMap<>();
    private final Map<TopicPartition, Long> ends = new HashMap<>();
    private final long quotaOfMax;
    private final Resume resume;
    private long trained;
    private int turn;

    /**
     * The feed of worker {@code index} of {@code workers}, in consumer group {@code group}, reading {@code spec}'s
     * topic through {@code clientProperties} and decoding with {@code decoder} examples of {@code inputs} features.
     *
     * @throws IllegalStateException when the topic does not exist or has fewer partitions than workers
     */
    KafkaExampleFeed(
            final TopicSpec spec,
            final ExampleDecoder decoder,
            final int inputs,
            final int index,
            final int workers,
            final String group,
            final Properties clientProperties) {
        this.spec = spec;
        this.decoder = decoder;
        this.inputs = inputs;
        final Properties props = ClientProperties.assignedConsumer(clientProperties);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        final List<PartitionInfo> partitions = consumer.partitionsFor(spec.topic(), METADATA_TIMEOUT);
        if (partitions == null || partitions.isEmpty()) {
            consumer.close();
            throw new IllegalStateException("data topic " + spec.topic() + " does not exist");
        }
        if (partitions.size() < workers) {
            consumer.close();
            throw new IllegalStateException("data topic " + spec.topic() + " has " + partitions.size()
                    + " partitions; each of the job's " + workers + " workers needs at least one");
        }
        if (!spec.ends().isEmpty() && spec.ends().size() != partitions.size()) {
            consumer.close();
            throw new IllegalStateException("the job ends data topic " + spec.topic() + " at "
                    + spec.ends().size() + " offsets, but it has " + partitions.size() + " partitions");
        }
        this.owned = new ArrayList<>();
        for (int p = index; p < partitions.size(); p += workers) {
            final TopicPartition partition = new TopicPartition(spec.topic(), p);
            owned.add(partition);
            buffered.put(partition, new ArrayDeque<>());
            if (!spec.ends().isEmpty()) {
                ends.put(partition, spec.ends().get(p));
            }
        }
        this.quotaOfMax = spec.maxExamples() > 0
                ? spec.maxExamples() / workers + (index < spec.maxExamples() % workers ? 1 : 0)
                : Long.MAX_VALUE;
        consumer.assign(owned);
        this.resume = seekToCommitted();
        this.trained = resume.trained();
    }

    private Resume seekToCommitted() {
        final Map<TopicPartition, OffsetAndMetadata> committed =
                consumer.committed(Set.copyOf(owned), METADATA_TIMEOUT);
        final Map<TopicPartition, Long> beginnings = consumer.beginningOffsets(owned, METADATA_TIMEOUT);
        Resume resumed = Resume.START;
        for (final TopicPartition partition : owned) {
            final OffsetAndMetadata offset = committed.get(partition);
            final long position = offset == null ? beginnings.get(partition) : offset.offset();
            next.put(partition, position);
            consumer.seek(partition, position);
            if (offset != null) {
                final Resume from = ResumeMetadata.parse(offset.metadata());
                if (from.clock() > resumed.clock()) {
                    resumed = from;
                }
            }
        }
        return resumed;
    }

    @Override
    public Resume resume() {
        return resume;
    }

    @Override
    public ClockInput take(final int quota, final int lingerMs, final BooleanSupplier stopping) {
        final int wanted = (int) Math.min(quota, quotaOfMax - trained);
        final List<ClockInput.Example> examples = new ArrayList<>(Math.max(0, wanted));
        final List<ClockInput.BadExample> bad = new ArrayList<>();
        long lingerEnd = Long.MAX_VALUE;
        while (examples.size() < wanted && !over() && !stopping.getAsBoolean()) {
            drain(wanted, examples, bad);
            if (examples.size() >= wanted || over()) {
                break;
            }
            final long now = System.nanoTime();
            if (!examples.isEmpty() && lingerEnd == Long.MAX_VALUE) {
                lingerEnd = now + lingerMs * 1_000_000L;
            }
            if (now >= lingerEnd) {
                break;
            }
            final Duration wait =
                    lingerEnd == Long.MAX_VALUE ? POLL : Duration.ofNanos(Math.min(POLL.toNanos(), lingerEnd - now));
            for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(wait)) {
                buffered.get(new TopicPartition(record.topic(), record.partition()))
                        .add(record);
            }
        }
        trained += examples.size();
        return new ClockInput(examples, bad, ClockInput.ranges(examples, bad), lag(), over() && examples.isEmpty());
    }

    /** Takes buffered records round robin across the partitions until {@code wanted} examples are taken. */
    private void drain(
            final int wanted, final List<ClockInput.Example> examples, final List<ClockInput.BadExample> bad) {
        boolean took = true;
        while (examples.size() < wanted && took) {
            took = false;
            for (int i = 0; i < owned.size() && examples.size() < wanted; i++) {
                final TopicPartition partition = owned.get((turn + i) % owned.size());
                final ConsumerRecord<byte[], byte[]> record =
                        buffered.get(partition).peek();
                if (record == null || record.offset() >= ends.getOrDefault(partition, Long.MAX_VALUE)) {
                    continue;
                }
                buffered.get(partition).poll();
                next.put(partition, record.offset() + 1);
                took = true;
                take(record, examples, bad);
            }
            turn = (turn + 1) % owned.size();
        }
    }

    private void take(
            final ConsumerRecord<byte[], byte[]> record,
            final List<ClockInput.Example> examples,
            final List<ClockInput.BadExample> bad) {
        final float[] features = new float[inputs];
        try {
            final float target = decoder.decode(record.value(), features);
            examples.add(
                    new ClockInput.Example(record.partition(), record.offset(), record.timestamp(), features, target));
        } catch (final DataTopicValues.Refusal refusal) {
            bad.add(new ClockInput.BadExample(
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    record.timestamp(),
                    record.key() == null ? "" : new String(record.key(), StandardCharsets.UTF_8),
                    record.value(),
                    refusal.reason(),
                    refusal.getMessage()));
        }
    }

    /** Whether this worker's input is over: its part of max-examples trained, or every partition at its end. */
    private boolean over() {
        if (trained >= quotaOfMax) {
            return true;
        }
        if (ends.isEmpty()) {
            return false;
        }
        for (final TopicPartition partition : owned) {
            final long end = ends.get(partition);
            if (next.get(partition) < end
                    && (!buffered.get(partition).isEmpty() || consumer.position(partition) < end)) {
                return false;
            }
        }
        return true;
    }

    private long lag() {
        long lag = 0;
        for (final TopicPartition partition : owned) {
            final OptionalLong behind = consumer.currentLag(partition);
            if (behind.isEmpty()) {
                return -1;
            }
            lag += behind.getAsLong() + buffered.get(partition).size();
        }
        return lag;
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> offsets(final long nextClock) {
        final Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        final String metadata = ResumeMetadata.format(new Resume(nextClock, trained));
        for (final TopicPartition partition : owned) {
            offsets.put(partition, new OffsetAndMetadata(next.get(partition), metadata));
        }
        return offsets;
    }

    @Override
    public ConsumerGroupMetadata group() {
        return consumer.groupMetadata();
    }

    @Override
    public void close() {
        consumer.close();
    }
}
