package io.paramhub.stream;

import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.TrainTest;
import io.paramhub.schemas.registry.RegistryClientSettings;
import io.paramhub.schemas.registry.SchemaRegistryClient;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryException;
import io.paramhub.schemas.serde.TopicNameStrategy;
import io.paramhub.topology.ClientProperties;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams a data set's examples to a Kafka topic at a steady rate, for online training ({@code paramhub stream},
 * and in-process for the demo and the bench). Topic out: {@link StreamSettings#topic()}, whose value schema
 * ({@link ExampleRecords}) it registers under {@code <topic>-value}; example {@code id} (from 0, counting on
 * across loops) goes to partition {@code id mod partitions}, so that N partitions hold equal shares.
 *
 * <p>{@link #open} loads the data set, checks the settings against it, creates the topic when missing and
 * registers the schema: every mistake (a bad data spec, drift on a regression set, an unreachable broker or
 * registry) fails there, in the caller's thread. Then either {@link #run} streams in the calling thread, or
 * {@link #start} in a thread of its own:
 *
 * <pre>{@code
 * try (ExampleStreamer streamer = ExampleStreamer.open(settings, connection)) {
 *     CompletableFuture<StreamResult> done = streamer.start();
 *     long sent = streamer.sent();          // handed to the producer so far
 *     streamer.stop();                      // ends after the current step, flushes
 *     StreamResult result = done.join();    // examples acknowledged, time, rate
 * }
 * }</pre>
 *
 * A streamer streams once. {@link #close} stops it, waits for it to finish and closes its producer.
 */
public final class ExampleStreamer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExampleStreamer.class);

    private final StreamSettings settings;
    private final Dataset data;
    private final LabelDrift drift;
    private final OptionalLong planned;
    private final StreamTopic topic;
    private final int schemaId;
    private final ExampleProducer producer;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicBoolean started = new AtomicBoolean();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopping;

    private ExampleStreamer(
            final StreamSettings settings,
            final Dataset data,
            final LabelDrift drift,
            final OptionalLong planned,
            final StreamTopic topic,
            final int schemaId,
            final ExampleProducer producer) {
        this.settings = settings;
        this.data = data;
        this.drift = drift;
        this.planned = planned;
        this.topic = topic;
        this.schemaId = schemaId;
        this.producer = producer;
    }

    /**
     * A streamer ready to stream: data set loaded, topic there, schema registered, producer created.
     *
     * @param connection the cluster's settings: {@code bootstrap.servers}, {@code schema.registry.url} and any
     *     other Kafka or registry client setting, each client taking its own
     * @throws IllegalArgumentException for a data spec no provider reads (DataSources' message), an empty data
     *     set, {@code --drift-at} on a regression set, or a {@code --count} beyond the data set without loop
     * @throws io.paramhub.ml.DataFileException for a data file that cannot be read or holds bad data
     * @throws IllegalStateException when the broker or the registry cannot be reached in time or refuses
     */
    public static ExampleStreamer open(final StreamSettings settings, final Properties connection) {
        final Dataset data = dataset(settings);
        final LabelDrift drift = drift(settings, data);
        final OptionalLong planned = planned(settings, data);
        final StreamTopic topic = topic(settings, connection);
        log.info("stream {}", topic.describe(settings.partitions()));
        final int schemaId = register(topic.name(), data.isClassification(), connection);
        final ExampleProducer producer;
        try {
            producer = new ExampleProducer(connection, settings.timeout(), topic, data, schemaId, drift);
        } catch (final KafkaException e) {
            throw new IllegalArgumentException("cannot create a producer: " + e.getMessage(), e);
        }
        return new ExampleStreamer(settings, data, drift, planned, topic, schemaId, producer);
    }

    private static Dataset dataset(final StreamSettings settings) {
        final TrainTest sets = DataSources.load(settings.dataSpec());
        final Dataset data = settings.testSet() ? sets.test() : sets.train();
        if (data.size() == 0) {
            throw new IllegalArgumentException("data set " + data.name() + " has no examples to stream");
        }
        return data;
    }

    private static LabelDrift drift(final StreamSettings settings, final Dataset data) {
        if (settings.driftAt().isEmpty()) {
            return LabelDrift.none();
        }
        if (!data.isClassification()) {
            throw new IllegalArgumentException("--drift-at permutes class labels, and " + settings.dataSpec()
                    + " is a regression data set: leave --drift-at out");
        }
        return LabelDrift.derangement(settings.driftAt().getAsLong(), data.classes(), settings.seed());
    }

    private static OptionalLong planned(final StreamSettings settings, final Dataset data) {
        if (settings.count().isPresent()) {
            final long count = settings.count().getAsLong();
            if (!settings.loop() && count > data.size()) {
                throw new IllegalArgumentException("--count " + count + " is more than the " + data.size()
                        + " examples of " + data.name() + ": add --loop to start over at the end");
            }
            return settings.count();
        }
        return settings.loop() ? OptionalLong.empty() : OptionalLong.of(data.size());
    }

    private static StreamTopic topic(final StreamSettings settings, final Properties connection) {
        final Properties props = ClientProperties.withoutRegistrySettings(connection);
        final int timeoutMs =
                (int) Math.min(Integer.MAX_VALUE, settings.timeout().toMillis());
        props.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        final Admin admin;
        try {
            admin = Admin.create(props);
        } catch (final KafkaException e) {
            throw new IllegalArgumentException("cannot create a Kafka admin client: " + e.getMessage(), e);
        }
        try {
            return StreamTopic.ensure(admin, settings.topic(), settings.partitions(), settings.timeout());
        } finally {
            admin.close(settings.timeout());
        }
    }

    private static int register(final String topic, final boolean classification, final Properties connection) {
        final String subject = TopicNameStrategy.subject(topic, false);
        final SchemaRegistryClient registry;
        try {
            registry = SchemaRegistryClients.fromConfig(RegistryClientSettings.of(connection));
        } catch (final KafkaException e) {
            throw new IllegalArgumentException("schema registry: " + e.getMessage(), e);
        }
        try {
            return registry.register(subject, ExampleRecords.schema(classification));
        } catch (final SchemaRegistryException e) {
            throw new IllegalStateException(
                    "cannot register the examples' schema under " + subject + ": " + e.getMessage(), e);
        }
    }

    /**
     * Streams in the calling thread until the planned examples are written or {@link #stop} is called, then
     * flushes.
     *
     * @throws IllegalStateException when the streamer has streamed before, or a send fails
     */
    public StreamResult run() {
        claim();
        return stream();
    }

    /** Streams in a thread of its own (a daemon); the result completes when it ends, exceptionally on failure. */
    public CompletableFuture<StreamResult> start() {
        claim();
        final CompletableFuture<StreamResult> result = new CompletableFuture<>();
        final Thread thread = new Thread(
                () -> {
                    try {
                        result.complete(stream());
                    } catch (final RuntimeException | Error e) {
                        log.warn("stream to topic {} failed", topic.name(), e);
                        result.completeExceptionally(e);
                    }
                },
                "paramhub-stream-" + topic.name());
        thread.setDaemon(true);
        thread.start();
        return result;
    }

    /** Asks the stream to end after its current step (at most 10 ms of examples); it flushes, then returns. */
    public void stop() {
        stopping = true;
    }

    /** How many examples were handed to the producer so far. */
    public long sent() {
        return sent.get();
    }

    /** How many examples the broker has acknowledged so far. */
    public long acknowledged() {
        return producer.acknowledged();
    }

    /** The topic streamed to, with its partition count and whether it was created. */
    public StreamTopic topic() {
        return topic;
    }

    /** The id of the value schema in the registry. */
    public int schemaId() {
        return schemaId;
    }

    /** The data set streamed (its training or test set). */
    public Dataset dataset() {
        return data;
    }

    /** The label permutation, {@link LabelDrift#none()} without {@code --drift-at}. */
    public LabelDrift drift() {
        return drift;
    }

    /** How many examples the stream writes; empty when it loops until stopped. */
    public OptionalLong planned() {
        return planned;
    }

    /** The settings it streams with. */
    public StreamSettings settings() {
        return settings;
    }

    /** Stops the stream, waits (for at most the settings' timeout) for it to flush, closes the producer. */
    @Override
    public void close() {
        stop();
        if (started.get()) {
            try {
                if (!finished.await(settings.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                    log.warn("stream to topic {} did not end within {}", topic.name(), settings.timeout());
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        producer.close(settings.timeout());
    }

    private void claim() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("the stream to topic " + topic.name() + " has been started already");
        }
    }

    private StreamResult stream() {
        try {
            final Pacer pacer = new Pacer(settings.rate());
            final long end = planned.orElse(Long.MAX_VALUE);
            final long start = System.nanoTime();
            long next = 0;
            while (next < end && !stopping) {
                final long due = Math.min(end, pacer.due(System.nanoTime() - start));
                while (next < due && !stopping) {
                    producer.send(next);
                    next++;
                    sent.set(next);
                }
                final long pause = next < end ? pacer.pause(next, System.nanoTime() - start) : 0;
                if (pause > 0) {
                    LockSupport.parkNanos(this, pause);
                }
                if (Thread.currentThread().isInterrupted()) {
                    stopping = true;
                }
            }
            flush();
            final StreamResult result =
                    new StreamResult(topic.name(), producer.acknowledged(), System.nanoTime() - start);
            log.info("{}", result);
            return result;
        } finally {
            finished.countDown();
        }
    }

    /** Flushes, also in a thread that was interrupted to stop it: the examples sent are written. */
    private void flush() {
        final boolean interrupted = Thread.interrupted();
        try {
            producer.flush();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
