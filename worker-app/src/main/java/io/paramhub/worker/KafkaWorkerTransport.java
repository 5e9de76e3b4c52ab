package io.paramhub.worker;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.ml.ExampleFields;
import io.paramhub.ml.ExampleLabels;
import io.paramhub.ml.TopicSpec;
import io.paramhub.schemas.serde.AvroSerde;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobLookup;
import io.paramhub.topology.client.TopicReader;
import io.paramhub.topology.client.UndecodableRecordHandler;
import io.paramhub.topology.errors.DeadLetters;
import io.paramhub.topology.jobs.StagePlan;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker's {@link WorkerTransport} over Kafka: one producer for {@code gradients}, {@code telemetry},
 * {@code membership} and {@code dead-letters} (a topic-mode worker: a second, transactional one for what its
 * clocks produce, with its input offsets; {@link KafkaExampleFeed} reads its examples); {@link TopicReader}s of
 * {@code jobs} and {@code model}. Records of {@code jobs} and {@code model} that do not deserialize are logged,
 * set aside on {@code dead-letters} (reason {@code MALFORMED}, with the bytes and who could not read them) and
 * skipped, so that a bad record cannot stop the job's workers.
 */
final class KafkaWorkerTransport implements WorkerTransport {

    private static final Logger log = LoggerFactory.getLogger(KafkaWorkerTransport.class);
    private static final int TRANSACTION_TIMEOUT_MS = 10_000;

    private final String workerId;
    private final TopicCatalog topics;
    private final Properties clientProperties;
    private final WorkerClients clients;
    private final boolean ownClients;
    private final KafkaProducer<String, byte[]> producer;
    private KafkaProducer<String, byte[]> transactional;
    private final UndecodableRecordHandler deadLetters;
    private final AtomicReference<Exception> sendFailure = new AtomicReference<>();

    /** A transport with Kafka clients of its own. */
    KafkaWorkerTransport(final String workerId, final TopicCatalog topics, final Properties clientProperties) {
        this(workerId, new WorkerClients(topics, clientProperties), true);
    }

    /** A transport through {@code clients}, which the workers of this process share and which it leaves open. */
    KafkaWorkerTransport(final String workerId, final WorkerClients clients) {
        this(workerId, clients, false);
    }

    private KafkaWorkerTransport(final String workerId, final WorkerClients clients, final boolean ownClients) {
        this.workerId = workerId;
        this.topics = clients.topics();
        this.clientProperties = clients.clientProperties();
        this.clients = clients;
        this.ownClients = ownClients;
        this.producer = clients.producer();
        this.deadLetters = this::setAside;
    }

    @Override
    public JobSpec awaitJob(final String job, final Duration timeout) {
        return JobLookup.await(topics.jobs(), clientProperties, job, timeout, deadLetters);
    }

    @Override
    public ModelFeed readCommittedModel(final Collection<String> shardKeys) {
        return new Feed(new TopicReader<>(
                topics.model(), ClientProperties.briefFetchWaits(clientProperties), Map.of(), deadLetters, shardKeys));
    }

    @Override
    public ModelFeed readModel(
            final Collection<String> shardKeys,
            final Map<TopicPartition, Long> from,
            final boolean wholeVersions,
            final int versionBytes) {
        return clients.model(shardKeys, from, wholeVersions, versionBytes, deadLetters);
    }

    @Override
    public ActivationExchange exchange(
            final JobSpec spec, final StagePlan plan, final int workerIndex, final String worker) {
        return new ActivationExchange(
                topics,
                clientProperties,
                producer,
                spec,
                plan.replicaOf(workerIndex),
                plan.stageOf(workerIndex),
                plan.stages(),
                worker);
    }

    @Override
    public HostSum hostSum(final String job) {
        return clients.hostSum(job);
    }

    @Override
    public void publishGradient(final GradientShard gradient) {
        send(clockProducer(), topics.gradients(), ShardKeys.shard(gradient.getJob(), gradient.getShard()), gradient);
    }

    @Override
    public void publishTelemetry(final IterationTelemetry telemetry) {
        send(
                clockProducer(),
                topics.telemetry(),
                ShardKeys.worker(telemetry.getJob(), telemetry.getWorker()),
                telemetry);
    }

    @Override
    public void useTransactions(final String transactionalId) {
        final Properties props = ClientProperties.producer(clientProperties);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        // a worker killed inside a clock's transaction holds back read_committed readers of gradients (the
        // aggregator) until its restart aborts it or this timeout does: a clock's transaction lasts milliseconds
        props.putIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, TRANSACTION_TIMEOUT_MS);
        transactional = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        transactional.initTransactions();
    }

    @Override
    public void beginClock() {
        if (transactional != null) {
            transactional.beginTransaction();
        }
    }

    @Override
    public void endClock(final Map<TopicPartition, OffsetAndMetadata> offsets, final ConsumerGroupMetadata group) {
        if (transactional == null) {
            producer.flush();
            return;
        }
        try {
            if (!offsets.isEmpty()) {
                transactional.sendOffsetsToTransaction(offsets, group);
            }
            transactional.commitTransaction();
        } catch (final ProducerFencedException e) {
            throw new IllegalStateException(workerId + " was fenced: another process runs as " + workerId, e);
        } catch (final KafkaException e) {
            transactional.abortTransaction();
            throw new IllegalStateException(workerId + " could not commit its clock: " + e.getMessage(), e);
        }
    }

    @Override
    public void setAside(final String key, final DeadLetter letter) {
        send(clockProducer(), topics.deadLetters(), key, letter);
    }

    @Override
    public ExampleFeed examples(final JobSpec spec, final TopicSpec topic, final int workerIndex, final String group) {
        if (!(topics.deadLetters().valueSerde() instanceof AvroSerde<?> avro)) {
            throw new IllegalStateException("the topics' serdes have no schema registry to read examples with");
        }
        final ExampleDecoder decoder = new ExampleDecoder(
                avro.registry(),
                new ExampleFields(topic.features(), topic.label()),
                ExampleLabels.of(topic, spec.getOutputs()),
                spec.getInputs());
        return new KafkaExampleFeed(
                topic, decoder, spec.getInputs(), workerIndex, spec.getExpectedWorkers(), group, clientProperties);
    }

    private KafkaProducer<String, byte[]> clockProducer() {
        return transactional != null ? transactional : producer;
    }

    @Override
    public void announce(final WorkerStatus status) {
        send(producer, topics.membership(), ShardKeys.worker(status.getJob(), status.getWorker()), status);
    }

    @Override
    public void flush() {
        producer.flush();
    }

    @Override
    public void failIfSendFailed() {
        final Exception error = sendFailure.get();
        if (error != null) {
            throw new IllegalStateException(workerId + " could not publish to Kafka: " + error.getMessage(), error);
        }
    }

    @Override
    public void close() {
        if (transactional != null) {
            transactional.close();
        }
        if (ownClients) {
            clients.close();
        }
    }

    @Override
    public void refuseModel(final ModelShard shard, final String problem) {
        log.warn(
                "{} refused a record of {} for shard {} of job {}: {}",
                workerId,
                topics.model().name(),
                shard.getShard(),
                shard.getJob(),
                problem);
        final DeadLetter letter = DeadLetters.of(
                topics.model().name(),
                -1,
                -1,
                DeadLetterReason.INVALID_MODEL,
                workerId + " refused it: " + problem,
                (byte[]) null,
                shard.getUpdatedAt().toEpochMilli());
        send(producer, topics.deadLetters(), ShardKeys.shard(shard.getJob(), shard.getShard()), letter);
    }

    private void setAside(final RecordDeserializationException error) {
        UndecodableRecordHandler.LOG.accept(error);
        final ByteBuffer key = error.keyBuffer();
        final DeadLetter letter = DeadLetters.of(
                error.topicPartition().topic(),
                error.topicPartition().partition(),
                error.offset(),
                DeadLetterReason.MALFORMED,
                workerId + " could not deserialize it: " + error.getMessage(),
                error.valueBuffer(),
                error.timestamp());
        send(
                producer,
                topics.deadLetters(),
                key == null
                        ? ""
                        : StandardCharsets.UTF_8.decode(key.duplicate()).toString(),
                letter);
    }

    private <V> void send(
            final KafkaProducer<String, byte[]> sender, final Topic<String, V> topic, final String key, final V value) {
        final byte[] bytes = topic.valueSerde().serializer().serialize(topic.name(), value);
        sender.send(new ProducerRecord<>(topic.name(), key, bytes), (metadata, error) -> {
            if (error != null) {
                sendFailure.compareAndSet(null, error);
            }
        });
    }

    /** The model as a {@link TopicReader} of {@code model} reads it, the tombstones it met kept apart. */
    private record Feed(TopicReader<String, ModelShard> reader, ModelTombstones tombstones) implements ModelFeed {

        Feed(final TopicReader<String, ModelShard> reader) {
            this(reader, new ModelTombstones());
        }

        @Override
        public void poll(final Duration timeout, final Consumer<ModelShard> sink) {
            reader.poll(timeout, record -> tombstones.take(record, sink));
        }

        @Override
        public void catchUp(final Duration timeout, final Consumer<ModelShard> sink) {
            reader.catchUp(timeout, record -> tombstones.take(record, sink));
        }

        @Override
        public boolean deleted(final String job) {
            return tombstones.deleted(job);
        }

        @Override
        public Map<TopicPartition, Long> positions() {
            return reader.positions();
        }

        @Override
        public void close() {
            reader.close();
        }
    }
}
