package io.paramhub.worker;

import io.paramhub.avro.ModelShard;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.TopicReader;
import io.paramhub.topology.client.UndecodableRecordHandler;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The Kafka clients that the workers of one process share: one producer for what they send outside transactions
 * ({@code gradients}, {@code telemetry}, {@code membership}, {@code dead-letters}), and one reader of {@code model}
 * per set of partitions they read ({@link SharedModelReader}). Workers that run side by side (the embedded demo's,
 * or several on one host) then cost the broker one produce request and one fetch where each cost one of its own;
 * what each worker sends and reads is the same. Workers of a job declared with {@link #sumOnHost} also add up their
 * gradients before they send them ({@link HostSum}). Closing it closes the clients; the workers' transports leave them
 * open.
 */
public final class WorkerClients implements AutoCloseable {

    private final TopicCatalog topics;
    private final Properties clientProperties;
    private KafkaProducer<String, byte[]> producer;
    private final Map<ReaderKey, SharedModelReader> readers = new HashMap<>();
    private final Map<String, HostSum> hostSums = new HashMap<>();
    private boolean closed;

    public WorkerClients(final TopicCatalog topics, final Properties clientProperties) {
        this.topics = topics;
        this.clientProperties = clientProperties;
    }

    /**
     * Declares that this process runs the workers of {@code job} of indexes 0 to {@code workers} - 1, so that they
     * add up their gradients here and send one record a shard a clock ({@link HostSum}) when the job suits it.
     */
    public synchronized void sumOnHost(final String job, final int workers) {
        hostSums.put(job, new HostSum(IntStream.range(0, workers).boxed().toList()));
    }

    /** The host's sum declared for {@code job}, or null. */
    synchronized HostSum hostSum(final String job) {
        return hostSums.get(job);
    }

    /** The topics the workers read and write. */
    TopicCatalog topics() {
        return topics;
    }

    /** The settings every client of the workers starts from. */
    Properties clientProperties() {
        return clientProperties;
    }

    /** The shared producer, opened the first time it is asked for. */
    synchronized KafkaProducer<String, byte[]> producer() {
        requireOpen();
        if (producer == null) {
            producer = new KafkaProducer<>(
                    ClientProperties.producer(clientProperties), new StringSerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    /**
     * A feed of {@code model} from {@code from} (every partition of {@code shardKeys}) on, read without waiting for
     * the commit, through the reader shared by every worker of this process that reads the same partitions the same
     * way; {@code undecodable} hears of the records that do not deserialize when this call opens the reader.
     */
    synchronized ModelFeed model(
            final Collection<String> shardKeys,
            final Map<TopicPartition, Long> from,
            final boolean wholeVersions,
            final int versionBytes,
            final UndecodableRecordHandler undecodable) {
        requireOpen();
        final ReaderKey key = new ReaderKey(
                shardKeys == null ? null : List.copyOf(new TreeSet<>(shardKeys)), wholeVersions, versionBytes);
        final SharedModelReader shared = readers.get(key);
        final ModelFeed feed = shared == null ? null : shared.subscribe(from);
        if (feed != null) {
            return feed;
        }
        final SharedModelReader[] reader = new SharedModelReader[1];
        reader[0] = new SharedModelReader(
                new ReaderSource(new TopicReader<>(
                        topics.model(),
                        wholeVersions
                                ? ClientProperties.modelReads(clientProperties, versionBytes)
                                : ClientProperties.uncommittedReads(clientProperties),
                        from,
                        undecodable,
                        shardKeys)),
                () -> forget(key, reader[0]));
        readers.put(key, reader[0]);
        return reader[0].subscribe(from);
    }

    private synchronized void forget(final ReaderKey key, final SharedModelReader reader) {
        readers.remove(key, reader);
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the workers' shared Kafka clients are closed");
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (producer != null) {
            producer.close();
        }
    }

    /** What makes two workers' readers of {@code model} the same reader. */
    private record ReaderKey(List<String> shardKeys, boolean wholeVersions, int versionBytes) {}

    /** A {@link TopicReader} of {@code model} as a shared reader's source. */
    private record ReaderSource(TopicReader<String, ModelShard> reader) implements SharedModelReader.Source {

        @Override
        public void poll(final Duration timeout, final Consumer<ConsumerRecord<String, ModelShard>> sink) {
            reader.poll(timeout, sink);
        }

        @Override
        public Map<TopicPartition, Long> positions() {
            return reader.positions();
        }

        @Override
        public void seek(final TopicPartition partition, final long offset) {
            reader.seek(partition, offset);
        }

        @Override
        public void close() {
            reader.close();
        }
    }
}
