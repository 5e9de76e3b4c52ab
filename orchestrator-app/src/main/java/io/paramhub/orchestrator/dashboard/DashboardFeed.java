package io.paramhub.orchestrator.dashboard;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.schemas.serde.PatientDeserializer;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code jobs}, {@code telemetry}, {@code commands} and {@code model} from the beginning (one consumer,
 * no group, committed records only; {@code jobs} to its end first) into the {@link JobBoards}, on its own thread, and
 * every {@value #PUBLISH_MS} ms publishes a fresh JSON snapshot of each job that changed, with the orchestrator's
 * state of the job ({@code plannerStates}, an interactive query of its store). A job changed in the last
 * {@value #SETTLE_MS} ms is published again even without a new record, since the orchestrator's store may
 * lag the topics the feed reads. A record that cannot be read is logged and skipped; while the schema registry cannot
 * answer, the feed waits for it ({@link PatientDeserializer}) rather than skip what it could not decode. A valid spec on {@code jobs}
 * ({@code JobSpecs.problems}) makes the job's board and a tombstone drops it; a record of any other job, or of a
 * worker not of its job, is ignored and counted ({@link JobBoards#ignoredRecords}). A job's spec is written before
 * its workers start, so after the first pass over {@code jobs} its records come after its spec.
 */
final class DashboardFeed implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DashboardFeed.class);
    static final long PUBLISH_MS = 500;
    static final long SETTLE_MS = 5_000;
    private static final Duration POLL = Duration.ofMillis(100);
    private static final long TOPIC_RETRY_MS = 2_000;

    private final TopicCatalog topics;
    private final Deserializer<JobSpec> jobReader;
    private final Deserializer<IterationTelemetry> telemetryReader;
    private final Deserializer<ResourceCommand> commandReader;
    private final Deserializer<ModelShard> modelReader;
    private final Properties connection;
    private final JobBoards boards;
    private final Function<String, PlannerView> plannerStates;
    private final boolean planning;
    private final Map<String, long[]> publishedChanges = new HashMap<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private long seq;

    private DashboardFeed(
            final TopicCatalog topics,
            final Properties connection,
            final JobBoards boards,
            final Function<String, PlannerView> plannerStates,
            final boolean planning) {
        this.topics = topics;
        this.jobReader = new PatientDeserializer<>(topics.jobs().valueSerde().deserializer());
        this.telemetryReader =
                new PatientDeserializer<>(topics.telemetry().valueSerde().deserializer());
        this.commandReader =
                new PatientDeserializer<>(topics.commands().valueSerde().deserializer());
        this.modelReader = new PatientDeserializer<>(topics.model().valueSerde().deserializer());
        this.connection = connection;
        this.boards = boards;
        this.plannerStates = plannerStates;
        this.planning = planning;
        this.thread = new Thread(this::run, "paramhub-dashboard-feed");
        this.thread.setDaemon(true);
    }

    /**
     * Starts reading. {@code plannerStates} answers the orchestrator's state of a job, null when it holds
     * none; {@code planning} says whether the orchestrator issues commands.
     */
    static DashboardFeed start(
            final TopicCatalog topics,
            final Properties connection,
            final JobBoards boards,
            final Function<String, PlannerView> plannerStates,
            final boolean planning) {
        final DashboardFeed feed = new DashboardFeed(topics, connection, boards, plannerStates, planning);
        feed.thread.start();
        return feed;
    }

    private void run() {
        final Properties props = ClientProperties.assignedConsumer(connection);
        // a topic not created yet is waited for, never created by asking for it
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        try (KafkaConsumer<String, byte[]> reader =
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer = reader;
            if (!running || !assignAll(reader)) {
                return;
            }
            long nextPublish = 0;
            while (running) {
                for (final ConsumerRecord<String, byte[]> record : reader.poll(POLL)) {
                    dispatch(record);
                }
                final long now = System.currentTimeMillis();
                if (now >= nextPublish) {
                    publish(now);
                    nextPublish = now + PUBLISH_MS;
                }
            }
        } catch (final WakeupException | InterruptException e) {
            // closing
        } catch (final RuntimeException e) {
            log.error("dashboard feed stopped; the dashboard no longer updates", e);
        }
    }

    /** Assigns every partition of the four topics, waiting for topics not yet created; false if closed first. */
    private boolean assignAll(final KafkaConsumer<String, byte[]> reader) {
        final List<String> names = List.of(
                topics.jobs().name(),
                topics.telemetry().name(),
                topics.commands().name(),
                topics.model().name());
        boolean warned = false;
        while (running) {
            final List<TopicPartition> partitions = new ArrayList<>();
            final List<String> missing = new ArrayList<>();
            for (final String name : names) {
                final List<PartitionInfo> infos = reader.partitionsFor(name, Duration.ofSeconds(10));
                if (infos == null || infos.isEmpty()) {
                    missing.add(name);
                } else {
                    infos.forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
                }
            }
            if (missing.isEmpty()) {
                return readJobsFirst(reader, partitions);
            }
            if (!warned) {
                log.warn("dashboard waits for topics {} to be created", missing);
                warned = true;
            }
            final long until = System.currentTimeMillis() + TOPIC_RETRY_MS;
            while (running && System.currentTimeMillis() < until) {
                try {
                    Thread.sleep(POLL.toMillis());
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return false;
    }

    /**
     * Reads {@code jobs} up to its end, then assigns every partition, the others from their beginning: a board is made
     * only from a spec, so records of a job read before its spec would be ignored. False if closed first.
     */
    private boolean readJobsFirst(final KafkaConsumer<String, byte[]> reader, final List<TopicPartition> partitions) {
        final List<TopicPartition> jobs = partitions.stream()
                .filter(partition -> partition.topic().equals(topics.jobs().name()))
                .toList();
        reader.assign(jobs);
        reader.seekToBeginning(jobs);
        final Map<TopicPartition, Long> ends = reader.endOffsets(jobs);
        while (running && jobs.stream().anyMatch(partition -> reader.position(partition) < ends.get(partition))) {
            for (final ConsumerRecord<String, byte[]> record : reader.poll(POLL)) {
                dispatch(record);
            }
        }
        if (!running) {
            return false;
        }
        final Map<TopicPartition, Long> read = new HashMap<>();
        jobs.forEach(partition -> read.put(partition, reader.position(partition)));
        reader.assign(partitions);
        reader.seekToBeginning(partitions.stream()
                .filter(partition -> !read.containsKey(partition))
                .toList());
        read.forEach(reader::seek);
        return true;
    }

    private void dispatch(final ConsumerRecord<String, byte[]> record) {
        final String topic = record.topic();
        if (record.value() == null) {
            if (topic.equals(topics.jobs().name()) && record.key() != null) {
                delete(record.key());
            }
            return;
        }
        try {
            if (topic.equals(topics.telemetry().name())) {
                final IterationTelemetry telemetry = telemetryReader.deserialize(topic, record.value());
                final JobBoard board = ofJob(telemetry.getJob(), telemetry.getWorker());
                if (board != null) {
                    board.onTelemetry(telemetry);
                }
            } else if (topic.equals(topics.model().name())) {
                final ModelShard shard = modelReader.deserialize(topic, record.value());
                final JobBoard board = boards.recordOf(shard.getJob());
                if (board != null && board.onModel(shard)) {
                    boards.releaseModelsBeyond(JobBoards.MODELS_HELD);
                }
            } else if (topic.equals(topics.commands().name())) {
                final ResourceCommand command = commandReader.deserialize(topic, record.value());
                final JobBoard board = ofJob(command.getJob(), command.getWorker());
                if (board != null) {
                    board.onCommand(command);
                }
            } else if (topic.equals(topics.jobs().name())) {
                final JobSpec spec = jobReader.deserialize(topic, record.value());
                final List<String> problems = JobSpecs.problems(spec);
                if (!problems.isEmpty()) {
                    // the aggregator sets it aside on dead-letters (INVALID_JOB); the dashboard has no producer
                    log.warn(
                            "dashboard passed over an invalid spec of job {}: {}",
                            spec.getJob(),
                            String.join("; ", problems));
                    return;
                }
                boards.submit(spec);
            }
        } catch (final RuntimeException e) {
            log.warn(
                    "dashboard skipped an unreadable record, topic: {}, partition: {}, offset: {}",
                    topic,
                    record.partition(),
                    record.offset(),
                    e);
        }
    }

    /** The board of {@code job} if {@code worker} is one of its workers; null, counted as ignored, otherwise. */
    private JobBoard ofJob(final String job, final String worker) {
        final JobBoard board = boards.recordOf(job);
        if (board != null && !board.ofJob(worker)) {
            boards.ignored();
            return null;
        }
        return board;
    }

    private void delete(final String job) {
        if (boards.delete(job) != null) {
            log.info("dashboard dropped the board of deleted job {}", job);
        }
    }

    /** Publishes each job changed since its last snapshot, or changed in the last {@link #SETTLE_MS} ms. */
    private void publish(final long now) {
        final List<JobBoard> all = boards.all();
        // boards dropped (deleted, or making room for a new job) are forgotten here too
        publishedChanges.keySet().retainAll(all.stream().map(JobBoard::job).toList());
        for (final JobBoard board : all) {
            final long changes = board.changes();
            final long[] last = publishedChanges.computeIfAbsent(board.job(), job -> new long[] {-1, 0});
            if (changes != last[0]) {
                last[0] = changes;
                last[1] = now;
            } else if (now - last[1] > SETTLE_MS) {
                continue;
            }
            final PlannerView planner = plannerStates.apply(board.job());
            seq++;
            board.publish(new JobBoard.Published(
                    seq, board.snapshot(planner, planning, now).put("seq", seq).encode()));
        }
    }

    @Override
    public void close() {
        running = false;
        final KafkaConsumer<String, byte[]> reader = consumer;
        if (reader != null) {
            reader.wakeup(); // not an interrupt: the consumer must still close cleanly
        }
        try {
            thread.join(10_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
