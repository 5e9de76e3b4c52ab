package io.paramhub.worker;

import io.paramhub.avro.ActivationBatch;
import io.paramhub.avro.JobSpec;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pipeline stage worker's link to the neighbouring stages of its replica: sends its micro-batches'
 * activations to the next stage on {@code activations} and the gradients by its input to the previous
 * stage on {@code activation-gradients}, and reads what its neighbours send it from the same topics. All
 * of a replica's records are keyed {@code job/replica-r} and go to the partition Kafka's default
 * partitioner gives that key, the one partition each stage worker of the replica reads, from a minute
 * before the job's creation time on ({@code offsetsForTimes}; records of other jobs and replicas are passed
 * over), so that none is missed however late a worker starts.
 */
final class ActivationExchange implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ActivationExchange.class);
    private static final Duration POLL = Duration.ofMillis(50);
    /** How far before the job's creation reading starts: the senders' clocks may lag the submitter's. */
    private static final long CLOCK_SLACK_MS = 60_000;

    private final TopicCatalog topics;
    private final KafkaProducer<String, byte[]> producer;
    private final JobSpec spec;
    private final int replica;
    private final int stage;
    private final String worker;
    private final String key;
    private final KafkaConsumer<String, ActivationBatch> consumer;
    private final Map<String, Integer> partitions = new HashMap<>();
    /** Received micro-batches not yet asked for. */
    private final Map<Slot, ActivationBatch> received = new HashMap<>();

    private long bytesSent;
    private long bytesReceived;

    ActivationExchange(
            final TopicCatalog topics,
            final Properties clientProperties,
            final KafkaProducer<String, byte[]> producer,
            final JobSpec spec,
            final int replica,
            final int stage,
            final int stages,
            final String worker) {
        this.topics = topics;
        this.producer = producer;
        this.spec = spec;
        this.replica = replica;
        this.stage = stage;
        this.worker = worker;
        this.key = ShardKeys.replica(spec.getJob(), replica);
        final Topic<String, ActivationBatch> activations = topics.activations();
        this.consumer = new KafkaConsumer<>(
                ClientProperties.uncommittedReads(ClientProperties.assignedConsumer(clientProperties)),
                activations.keySerde().deserializer(),
                activations.valueSerde().deserializer());
        final List<TopicPartition> reading = new ArrayList<>();
        for (final Topic<String, ActivationBatch> topic : List.of(activations, topics.activationGradients())) {
            final int count =
                    consumer.partitionsFor(topic.name(), Duration.ofSeconds(30)).size();
            if (count == 0) {
                consumer.close();
                throw new IllegalStateException("topic " + topic.name() + " does not exist");
            }
            final int partition = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % count;
            partitions.put(topic.name(), partition);
            final boolean reads = topic == activations ? stage > 0 : stage < stages - 1;
            if (reads) {
                reading.add(new TopicPartition(topic.name(), partition));
            }
        }
        consumer.assign(reading);
        // the end first: if no record is as new as the job when asked, those to come lie past that end
        final Map<TopicPartition, Long> ends = consumer.endOffsets(reading, Duration.ofSeconds(30));
        final Map<TopicPartition, Long> times = new HashMap<>();
        reading.forEach(partition -> times.put(partition, spec.getCreatedAt().toEpochMilli() - CLOCK_SLACK_MS));
        final Map<TopicPartition, OffsetAndTimestamp> offsets = consumer.offsetsForTimes(times, Duration.ofSeconds(30));
        for (final TopicPartition partition : reading) {
            final OffsetAndTimestamp offset = offsets.get(partition);
            consumer.seek(partition, offset == null ? ends.get(partition) : offset.offset());
        }
    }

    /** Sends micro-batch {@code micro}'s activations to the next stage. */
    void sendForward(final long clock, final int micro, final float[][] rows) {
        send(topics.activations(), stage + 1, clock, micro, rows);
    }

    /** Sends micro-batch {@code micro}'s gradient by this stage's input to the previous stage. */
    void sendBackward(final long clock, final int micro, final float[][] rows) {
        send(topics.activationGradients(), stage - 1, clock, micro, rows);
    }

    /** The previous stage's activations of micro-batch {@code micro}, waiting for them; null if {@code stop} says so first. */
    float[][] awaitForward(final long clock, final int micro, final Duration timeout, final BooleanSupplier stop) {
        return await(topics.activations().name(), clock, micro, timeout, stop);
    }

    /** The next stage's gradient by this stage's output for micro-batch {@code micro}, waiting for it. */
    float[][] awaitBackward(final long clock, final int micro, final Duration timeout, final BooleanSupplier stop) {
        return await(topics.activationGradients().name(), clock, micro, timeout, stop);
    }

    /** Bytes of activations and activation gradients this worker has sent (values only). */
    long bytesSent() {
        return bytesSent;
    }

    /** Bytes of activations and activation gradients this worker has received (values only). */
    long bytesReceived() {
        return bytesReceived;
    }

    private void send(
            final Topic<String, ActivationBatch> topic,
            final int toStage,
            final long clock,
            final int micro,
            final float[][] rows) {
        final int width = rows.length == 0 ? 0 : rows[0].length;
        final float[] flat = new float[rows.length * width];
        for (int s = 0; s < rows.length; s++) {
            System.arraycopy(rows[s], 0, flat, s * width, width);
        }
        final ActivationBatch batch = ActivationBatch.newBuilder()
                .setJob(spec.getJob())
                .setReplica(replica)
                .setFromStage(stage)
                .setToStage(toStage)
                .setWorker(worker)
                .setClock(clock)
                .setMicro(micro)
                .setSamples(rows.length)
                .setWidth(width)
                .setValues(FloatPacking.pack(flat))
                .build();
        final byte[] bytes = topic.valueSerde().serializer().serialize(topic.name(), batch);
        bytesSent += 4L * flat.length;
        producer.send(new ProducerRecord<>(topic.name(), partitions.get(topic.name()), key, bytes));
        // the next stage waits for it: send now rather than after the producer's linger
        producer.flush();
    }

    private float[][] await(
            final String topic, final long clock, final int micro, final Duration timeout, final BooleanSupplier stop) {
        final Slot slot = new Slot(topic, clock, micro);
        // what a neighbour sent again for an earlier clock (after a restart) is no longer asked for
        received.keySet().removeIf(old -> old.clock() < clock);
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!received.containsKey(slot)) {
            if (stop.getAsBoolean()) {
                return null;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(worker + " (replica " + replica + ", stage " + stage + ") waited "
                        + timeout.toSeconds() + " s for micro-batch " + micro + " of clock " + clock + " on " + topic
                        + ". Are all the replica's stage workers up?");
            }
            poll(clock);
        }
        final ActivationBatch batch = received.remove(slot);
        final float[] flat = FloatPacking.unpack(batch.getValues());
        bytesReceived += 4L * flat.length;
        final float[][] rows = new float[batch.getSamples()][batch.getWidth()];
        for (int s = 0; s < rows.length; s++) {
            System.arraycopy(flat, s * batch.getWidth(), rows[s], 0, batch.getWidth());
        }
        return rows;
    }

    private void poll(final long clock) {
        try {
            for (final ConsumerRecord<String, ActivationBatch> record : consumer.poll(POLL)) {
                final ActivationBatch batch = record.value();
                if (batch != null
                        && spec.getJob().equals(batch.getJob())
                        && batch.getReplica() == replica
                        && batch.getToStage() == stage
                        && batch.getClock() >= clock) {
                    received.put(new Slot(record.topic(), batch.getClock(), batch.getMicro()), batch);
                }
            }
        } catch (final RecordDeserializationException e) {
            log.warn(
                    "{} skips an undecodable record, topic: {}, partition: {}, offset: {}",
                    worker,
                    e.topicPartition().topic(),
                    e.topicPartition().partition(),
                    e.offset(),
                    e);
            consumer.seek(e.topicPartition(), e.offset() + 1);
        }
    }

    /** Where a micro-batch's record is kept until asked for. */
    private record Slot(String topic, long clock, int micro) {}

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
