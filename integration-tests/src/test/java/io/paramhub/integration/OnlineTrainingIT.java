package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OffsetRange;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import io.paramhub.ml.ReferenceTrainer;
import io.paramhub.topology.client.JobDeleter;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.client.ModelView;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.worker.ComputeEmulation;
import io.paramhub.worker.IterationListener;
import io.paramhub.worker.Worker;
import io.paramhub.worker.WorkerApp;
import io.paramhub.worker.WorkerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Online training from a topic written by a producer that is not ParamHub's ({@link ForeignExamples}): softmax
 * regression of 3 classes on 8 features, BSP, 2 workers each owning one of the data topic's 2 partitions, until
 * the end offsets the job was given. The worker processes are real JVMs, so that one can be SIGKILLed.
 */
@Tag("integration")
class OnlineTrainingIT extends AggregatedClusterTestBase {

    private static final int BATCH = 20;
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @TempDir
    private Path dir;

    @Test
    void shouldTrainEveryExampleOnceAndAsTheReplayWhenAWorkerIsSigkilledMidStreamAndRestarted() throws Exception {
        // given: 200 readings in each of 2 partitions, a job until their ends, each clock of a worker at least
        // 100 ms long
        final String topic = "readings-eo";
        createTopic(topic);
        final List<ForeignExamples.Written> written = new ArrayList<>();
        try (ForeignExamples producer = new ForeignExamples(kafka.bootstrapServers(), registry.url(), topic)) {
            written.addAll(producer.write(0, 200));
            written.addAll(producer.write(1, 200));
        }
        final JobSpec spec = job("online-eo", topic, "200|200");
        JobSubmitter.submit(topics.jobs(), connection.client(), spec);
        final Process first = startWorker(spec, 0);
        Process second = startWorker(spec, 1);

        // when: worker-001 is SIGKILLed once it has committed 100 examples, half its partition, and started again
        await().alias("worker-001 committing 100 examples")
                .atMost(TIMEOUT)
                .until(() -> committed("paramhub-worker." + spec.getJob() + ".worker-001", topic, 1) >= 100);
        second.destroyForcibly();
        assertThat(second.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(second.exitValue()).isEqualTo(128 + 9);
        assertThat(committed("paramhub-worker." + spec.getJob() + ".worker-001", topic, 1))
                .as("worker-001 killed before the end of its partition")
                .isLessThan(200);
        Files.move(log(1), dir.resolve("worker-1-killed.log"));
        second = startWorker(spec, 1);

        // then: both finish
        assertFinishes(first, 0);
        assertFinishes(second, 1);
        // every offset produced was trained exactly once, and no other
        final Map<Long, GradientShard[]> gradients = committedGradients(spec);
        final Map<Integer, List<long[]>> trained = new TreeMap<>();
        for (final GradientShard[] clock : gradients.values()) {
            for (final GradientShard gradient : clock) {
                for (final OffsetRange range : gradient.getExamples()) {
                    trained.computeIfAbsent(range.getPartition(), p -> new ArrayList<>())
                            .add(new long[] {range.getStart(), range.getEnd()});
                }
            }
        }
        assertThat(trained.keySet()).containsExactly(0, 1);
        for (final List<long[]> ranges : trained.values()) {
            ranges.sort((a, b) -> Long.compare(a[0], b[0]));
            long next = 0;
            for (final long[] range : ranges) {
                assertThat(range[0])
                        .as("the next range starts where the last ended")
                        .isEqualTo(next);
                next = range[1];
            }
            assertThat(next).isEqualTo(200);
        }
        // and the model is the one-process replay of the recorded ranges, bit for bit
        final float[] model = finalModel(spec, gradients.size());
        assertThat(model).containsExactly(replay(spec, written, gradients));
    }

    @Test
    void shouldSetPoisonExamplesAsideWithTheirReasonsAndFinishWhenAForeignProducerFeedsTheTopic() throws Exception {
        // given: 40 good readings in each partition, and among them one of each kind of bad value
        final String topic = "readings-poison";
        createTopic(topic);
        final Map<Long, DeadLetterReason> expected = new HashMap<>();
        final List<ForeignExamples.Written> good = new ArrayList<>();
        try (ForeignExamples producer = new ForeignExamples(kafka.bootstrapServers(), registry.url(), topic)) {
            good.addAll(producer.write(0, 20));
            expected.put(key(0, producer.writeBytes(0, "not avro".getBytes())), DeadLetterReason.MALFORMED);
            expected.put(key(0, producer.writeRaw(0, new float[] {1, 2, 3, 4, 5}, 0)), DeadLetterReason.WRONG_LENGTH);
            final float[] nan = new float[ForeignExamples.INPUTS];
            nan[3] = Float.NaN;
            expected.put(key(0, producer.writeRaw(0, nan, 1)), DeadLetterReason.NON_FINITE);
            good.addAll(producer.write(0, 20));
            expected.put(
                    key(1, producer.writeRaw(1, new float[ForeignExamples.INPUTS], 7)), DeadLetterReason.UNKNOWN_LABEL);
            expected.put(key(1, producer.writeBytes(1, otherSchemaValue())), DeadLetterReason.UNKNOWN_SCHEMA);
            good.addAll(producer.write(1, 20));
            expected.put(
                    key(1, producer.writeBytes(1, new byte[] {0, 0x7f, 0, 0, 1, 2})), DeadLetterReason.UNKNOWN_SCHEMA);
            good.addAll(producer.write(1, 20));
        }
        final long[] ends = new long[2];
        good.forEach(w -> ends[w.partition()] = Math.max(ends[w.partition()], w.offset() + 1));
        expected.keySet()
                .forEach(k -> ends[(int) (k >> 40)] = Math.max(ends[(int) (k >> 40)], (k & 0xffffffffffL) + 1));
        final JobSpec spec = job("online-poison", topic, ends[0] + "|" + ends[1]);

        // when: two workers in this process train it
        JobSubmitter.submit(topics.jobs(), connection.client(), spec);
        final List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int index = 0; index < 2; index++) {
            final Worker worker = new Worker(
                    WorkerSettings.of(spec.getJob(), index, 2),
                    topics,
                    connection.client(),
                    Worker.loadFromSpec(),
                    IterationListener.NONE);
            workers.add(CompletableFuture.runAsync(worker));
        }

        // then: the job finishes, each bad value is on dead-letters with its reason, and only the good were trained
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        final Map<Long, DeadLetterReason> setAside = deadLetters(topic).stream()
                .collect(Collectors.toMap(l -> key(l.getPartition(), l.getOffset()), DeadLetter::getReason));
        assertThat(setAside).isEqualTo(expected);
        final Set<Long> trained = committedGradients(spec).values().stream()
                .flatMap(clock -> Arrays.stream(clock))
                .flatMap(gradient -> gradient.getExamples().stream())
                .flatMap(range -> LongStream.range(range.getStart(), range.getEnd())
                        .mapToObj(offset -> key(range.getPartition(), offset)))
                .collect(Collectors.toSet());
        assertThat(trained)
                .containsExactlyInAnyOrderElementsOf(
                        good.stream().map(w -> key(w.partition(), w.offset())).toList());
    }

    @Test
    void shouldWaitForAnIdlePartitionLongerThanTheModelTimeoutWithoutFailingUnderBsp() throws Exception {
        // given: a job until 20 examples in each partition, only partition 0's there, workers with a 2 s model timeout
        final String topic = "readings-idle";
        createTopic(topic);
        final JobSpec spec = job("online-idle", topic, "20|20");
        JobSubmitter.submit(topics.jobs(), connection.client(), spec);
        try (ForeignExamples producer = new ForeignExamples(kafka.bootstrapServers(), registry.url(), topic)) {
            producer.write(0, 20);
            final List<CompletableFuture<Void>> workers = startWorkers(spec, SyncMode.BSP, Duration.ofSeconds(2));

            // when: partition 1 stays idle for 3 model timeouts, then its examples come
            Thread.sleep(6_000);
            assertThat(workers).noneMatch(CompletableFuture::isDone);
            producer.write(1, 20);

            // then: both finish, every example trained
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new))
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        assertThat(trainedOffsets(spec)).hasSize(40);
    }

    @Test
    void shouldTrainEveryExampleOnceUnderSspAndAsp() throws Exception {
        for (final SyncMode mode : List.of(SyncMode.SSP, SyncMode.ASP)) {
            // given: 100 readings in each partition
            final String topic = "readings-" + mode.name().toLowerCase(Locale.ROOT);
            createTopic(topic);
            try (ForeignExamples producer = new ForeignExamples(kafka.bootstrapServers(), registry.url(), topic)) {
                producer.write(0, 100);
                producer.write(1, 100);
            }
            final JobSpec spec = JobSpec.newBuilder(job("online-" + topic, topic, "100|100"))
                    .setSyncMode(mode)
                    .setStaleness(mode == SyncMode.SSP ? 2 : 0)
                    .build();

            // when
            JobSubmitter.submit(topics.jobs(), connection.client(), spec);
            final List<CompletableFuture<Void>> workers = startWorkers(spec, mode, Duration.ofSeconds(60));
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new))
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);

            // then
            assertThat(trainedOffsets(spec)).as(mode.name()).hasSize(200);
        }
    }

    @Test
    void shouldLeaveWhenAJobWithoutEndIsDeletedWhileItsWorkersWaitForExamples() throws Exception {
        // given: a job without end over 20 readings in each partition, trained, the workers waiting for more
        final String topic = "readings-unbounded";
        createTopic(topic);
        try (ForeignExamples producer = new ForeignExamples(kafka.bootstrapServers(), registry.url(), topic)) {
            producer.write(0, 20);
            producer.write(1, 20);
        }
        final JobSpec spec = JobSpec.newBuilder(job("online-unbounded", topic, "0|0"))
                .setDataset("topic:" + topic + ",features=x,label=y")
                .build();
        JobSubmitter.submit(topics.jobs(), connection.client(), spec);
        final List<CompletableFuture<Void>> workers = startWorkers(spec, SyncMode.BSP, Duration.ofSeconds(60));
        await().alias("the 40 readings trained")
                .atMost(TIMEOUT)
                .until(() -> trainedOffsets(spec).size() == 40);
        Thread.sleep(1_000);
        assertThat(workers).noneMatch(CompletableFuture::isDone);

        // when
        JobDeleter.delete(topics.jobs().name(), connection.client(), spec.getJob());

        // then: both leave
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }

    /** The job's two workers in this process, each a thread. */
    private static List<CompletableFuture<Void>> startWorkers(
            final JobSpec spec, final SyncMode mode, final Duration modelTimeout) {
        final List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int index = 0; index < 2; index++) {
            final Worker worker = new Worker(
                    new WorkerSettings(
                            spec.getJob(), index, 2, Duration.ofSeconds(60), modelTimeout, ComputeEmulation.NONE, 1),
                    topics,
                    connection.client(),
                    Worker.loadFromSpec(),
                    IterationListener.NONE);
            workers.add(CompletableFuture.runAsync(worker));
        }
        return workers;
    }

    /** Every data-topic offset the job's committed gradients trained, each checked to be there once. */
    private static Set<Long> trainedOffsets(final JobSpec spec) {
        final List<Long> offsets = committedGradients(spec).values().stream()
                .flatMap(Arrays::stream)
                .filter(gradient -> gradient != null)
                .flatMap(gradient -> gradient.getExamples().stream())
                .flatMap(range -> LongStream.range(range.getStart(), range.getEnd())
                        .mapToObj(offset -> key(range.getPartition(), offset)))
                .toList();
        final Set<Long> distinct = Set.copyOf(offsets);
        assertThat(distinct).as("offsets trained once").hasSize(offsets.size());
        return distinct;
    }

    private static long key(final int partition, final long offset) {
        return ((long) partition << 40) | offset;
    }

    private static byte[] otherSchemaValue() throws Exception {
        final String other = "{\"type\":\"record\",\"name\":\"Other\",\"namespace\":\"com.example\","
                + "\"fields\":[{\"name\":\"x\",\"type\":{\"type\":\"array\",\"items\":\"float\"}}]}";
        final int id = ForeignExamples.register(registry.url(), "other-value", other);
        final Schema schema = new Schema.Parser().parse(other);
        final GenericRecord record = new GenericData.Record(schema);
        record.put("x", List.of(1f, 2f, 3f, 4f, 5f, 6f, 7f, 8f));
        return ForeignExamples.frame(id, schema, record);
    }

    private static JobSpec job(final String name, final String topic, final String ends) {
        final Model model = Models.create("softmax", ForeignExamples.INPUTS, ForeignExamples.CLASSES);
        return JobSpecs.forModel(model, 2)
                .setJob(name)
                .setDataset("topic:" + topic + ",features=x,label=y,ends=" + ends)
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.1)
                .setMomentum(0.0)
                .setGlobalBatch(BATCH)
                .setExpectedWorkers(2)
                .setEpochs(1)
                .setSeed(5)
                .setSessionTimeoutMs(30_000)
                .setCreatedAt(Instant.now())
                .build();
    }

    private static void createTopic(final String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
    }

    private static long committed(final String group, final String topic, final int partition) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            final OffsetAndMetadata offset = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata()
                    .get()
                    .get(new TopicPartition(topic, partition));
            return offset == null ? 0 : offset.offset();
        }
    }

    /** The job's committed gradients with examples, by clock, each worker's shard 0 record at its index. */
    private static Map<Long, GradientShard[]> committedGradients(final JobSpec spec) {
        final Map<Long, GradientShard[]> clocks = new TreeMap<>();
        TopicContents.values(kafka.bootstrapServers(), topics.gradients()).stream()
                .filter(g -> g.getJob().equals(spec.getJob()) && g.getShard() == 0)
                .forEach(g -> {
                    final GradientShard[] workers = clocks.computeIfAbsent(g.getClock(), c -> new GradientShard[2]);
                    final int index = Integer.parseInt(g.getWorker().substring("worker-".length()));
                    assertThat(workers[index])
                            .as("%s's gradient of clock %d, once", g.getWorker(), g.getClock())
                            .isNull();
                    workers[index] = g;
                });
        return clocks;
    }

    private static List<DeadLetter> deadLetters(final String topic) {
        return TopicContents.values(kafka.bootstrapServers(), topics.deadLetters()).stream()
                .filter(letter -> letter.getSourceTopic().equals(topic))
                .toList();
    }

    /** The model once every shard has applied {@code clocks} versions. */
    private static float[] finalModel(final JobSpec spec, final int clocks) {
        final ModelView view = new ModelView(spec.getJob(), spec.getShards());
        await().alias("the model of " + spec.getJob() + " at version " + clocks)
                .atMost(TIMEOUT)
                .until(() -> {
                    TopicContents.values(kafka.bootstrapServers(), topics.model())
                            .forEach(view::offer);
                    return view.complete() && Arrays.stream(view.versions()).allMatch(v -> v >= clocks);
                });
        return view.assemble(spec.getParameters());
    }

    /** The run replayed in this process: each clock, each worker's gradient over the examples of its ranges. */
    private static float[] replay(
            final JobSpec spec, final List<ForeignExamples.Written> written, final Map<Long, GradientShard[]> clocks) {
        final float[] x = new float[written.size() * ForeignExamples.INPUTS];
        final float[] y = new float[written.size()];
        final Map<Long, Integer> index = new HashMap<>();
        for (int i = 0; i < written.size(); i++) {
            System.arraycopy(written.get(i).features(), 0, x, i * ForeignExamples.INPUTS, ForeignExamples.INPUTS);
            y[i] = written.get(i).label();
            index.put(key(written.get(i).partition(), written.get(i).offset()), i);
        }
        final Dataset all = new Dataset("readings", ForeignExamples.INPUTS, x, y, ForeignExamples.CLASSES);
        final List<int[][]> shares = new ArrayList<>();
        for (final GradientShard[] clock : clocks.values()) {
            final int[][] share = new int[clock.length][];
            for (int w = 0; w < clock.length; w++) {
                share[w] = clock[w] == null
                        ? new int[0]
                        : clock[w].getExamples().stream()
                                .flatMap(r -> LongStream.range(r.getStart(), r.getEnd())
                                        .mapToObj(o -> index.get(key(r.getPartition(), o))))
                                .mapToInt(Integer::intValue)
                                .toArray();
            }
            shares.add(share);
        }
        return ReferenceTrainer.trainRecorded(
                JobSpecs.model(spec),
                all,
                shares,
                JobSpecs.optimizer(spec),
                JobSpecs.schedule(spec),
                JobSpecs.layout(spec),
                spec.getSeed());
    }

    private Path log(final int index) {
        return dir.resolve("worker-" + index + ".log");
    }

    /**
     * Worker {@code index} of {@code spec} in a JVM of its own, each sample costing 10 ms more; compiled by C1 alone
     * and with the serial collector, which start it sooner on a small machine.
     */
    private Process startWorker(final JobSpec spec, final int index) throws IOException {
        final String java =
                Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-Xmx256m",
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        WorkerApp.class.getName(),
                        "--bootstrap-servers",
                        kafka.bootstrapServers(),
                        "--registry-url",
                        registry.url(),
                        "--job",
                        spec.getJob(),
                        "--index",
                        Integer.toString(index),
                        "--workers",
                        "2",
                        "--threads",
                        "1",
                        "--sample-cost-us",
                        "10000",
                        "--http-port",
                        "-1")
                .redirectErrorStream(true)
                .redirectOutput(log(index).toFile())
                .start();
    }

    private void assertFinishes(final Process worker, final int index) throws Exception {
        final boolean ended = worker.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        final String output = Files.readString(log(index));
        if (!ended) {
            worker.destroyForcibly();
        }
        assertThat(ended ? worker.exitValue() : -1)
                .as("worker %d exit code; its output:%n%s", index, output)
                .isZero();
    }
}
