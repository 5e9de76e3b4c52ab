package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.LinearProblem;
import io.paramhub.ml.ShardLayout;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.testing.KafkaTestCluster;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.WorkerIds;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forged but well-formed control records written by a second producer in the middle of a real 3-worker BSP run on a
 * real broker (issue 29, item 2): model versions no aggregator of the job can publish (version {@code Long.MAX_VALUE},
 * a {@code minClock} past the job's end, a shard count of 2e9), orchestrator commands no orchestrator issues (empty
 * speeds, a maximum epoch, a negative share, a million threads), membership of a worker beyond the job's count and a
 * LEFT of a live worker at a clock it has long passed, an invalid spec of the running job, and telemetry of a worker
 * beyond the job's count. Each is dead-lettered with its reason by whoever reads it (the aggregator's fan-outs, its
 * shard 0, the workers, the orchestrator, here observe-only and serving its dashboard), none is applied, and the model
 * is the in-process reference's, bit for bit. Telemetry of a job nobody submitted is set aside by no one, and the
 * dashboard makes no board of it.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForgedControlRecordsIT {

    private static final String JOB = "forged-control-it";
    private static final int WORKERS = 3;
    private static final int SHARDS = 2;
    private static final long INJECTED_AT_CLOCK = 5;
    private static final String UNKNOWN_JOB = "never-submitted";
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** A forged record and how its dead letter is told apart: its error names {@code marker}. */
    private record Forgery(String kind, DeadLetterReason reason, String marker) {}

    private static final List<Forgery> FORGERIES = List.of(
            new Forgery("model-version-max", DeadLetterReason.INVALID_MODEL, "version " + Long.MAX_VALUE),
            new Forgery("model-min-clock-huge", DeadLetterReason.INVALID_MODEL, "minClock 1000000000000"),
            new Forgery("model-shards-2e9", DeadLetterReason.INVALID_MODEL, "shard count 2000000000"),
            new Forgery("command-empty-speeds", DeadLetterReason.INVALID_COMMAND, "speeds are empty"),
            new Forgery("command-max-epoch", DeadLetterReason.INVALID_COMMAND, "epoch " + Long.MAX_VALUE),
            new Forgery("command-negative-share", DeadLetterReason.INVALID_COMMAND, "batch share -0.5"),
            new Forgery("command-huge-threads", DeadLetterReason.INVALID_COMMAND, "threads 1000000"),
            new Forgery("left-of-live-worker", DeadLetterReason.STALE, "LEFT of worker-001 at clock 0"),
            new Forgery("join-beyond-count", DeadLetterReason.UNKNOWN_WORKER, "'worker-003'"),
            new Forgery("invalid-job-spec", DeadLetterReason.INVALID_JOB, "invalid job " + JOB),
            new Forgery(
                    "telemetry-beyond-count",
                    DeadLetterReason.UNKNOWN_WORKER,
                    "telemetry of job " + JOB + " from 'worker-004'"));

    private KafkaTestCluster kafka;
    private SchemaRegistryServer registry;
    private LinearProblem problem;
    private JobSpec spec;
    private TopicCatalog topics;
    private TrainingRun.Result result;
    private final List<Injection> injected = new ArrayList<>();
    private List<DeadLetter> deadLetters;
    private volatile String dashboard;
    private volatile List<String> dashboardJobs;

    @BeforeAll
    void trainUnderForgedControlRecords(@TempDir final Path stateDir) throws InterruptedException {
        kafka = KafkaTestCluster.start();
        registry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", 0);
        problem = LinearJobs.problem();
        spec = LinearJobs.job(JOB, WORKERS, SHARDS, 2);
        topics = TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
        final String injecting = WorkerIds.of(0);
        try (Injector injector = new Injector(kafka.bootstrapServers())) {
            final RunListener listener = new RunListener() {
                @Override
                public void onIteration(final IterationTelemetry telemetry) {
                    if (injecting.equals(telemetry.getWorker()) && telemetry.getClock() == INJECTED_AT_CLOCK) {
                        inject(injector);
                    }
                    if (injecting.equals(telemetry.getWorker()) && telemetry.getClock() == INJECTED_AT_CLOCK + 3) {
                        dashboardJobs = jobsOnTheDashboard();
                    }
                }

                @Override
                public void onDashboard(final String url) {
                    dashboard = url.substring(0, url.lastIndexOf("/dashboard"));
                }
            };
            result = new TrainingRun(kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, stateDir)
                    .withDashboard(0)
                    .run(spec, problem.data(), listener);
        }
        deadLetters = readDeadLetters();
    }

    @AfterAll
    void stopCluster() {
        registry.close();
        kafka.close();
    }

    @Test
    void shouldFinishWithTheParametersOfTheReferenceRunBitForBit() {
        assertThat(injected).hasSize(FORGERIES.size() + 1);
        assertThat(result.epochs()).hasSize(spec.getEpochs());
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
    }

    @Test
    void shouldDeadLetterEachForgeryWithItsReason() {
        for (final Forgery forgery : FORGERIES) {
            assertThat(lettersOf(forgery))
                    .as(forgery.kind())
                    .isNotEmpty()
                    .allSatisfy(letter -> assertThat(letter.getReason()).isEqualTo(forgery.reason()));
        }
    }

    @Test
    void shouldDeadLetterTheAggregatorsForgeriesOnceAndTheModelsOncePerReaderAtMost() {
        for (final Forgery forgery : FORGERIES) {
            assertThat(lettersOf(forgery))
                    .as(forgery.kind())
                    .hasSizeBetween(1, forgery.reason() == DeadLetterReason.INVALID_MODEL ? WORKERS : 1);
        }
    }

    @Test
    void shouldShowOnTheDashboardOnlyTheJobWithASpecAndNotTheJobNamedOnlyByTelemetry() {
        assertThat(dashboardJobs).containsExactly(JOB);
    }

    @Test
    void shouldDeadLetterNothingElse() {
        assertThat(deadLetters)
                .allSatisfy(letter -> assertThat(FORGERIES)
                        .anySatisfy(forgery -> assertThat(letter.getError()).contains(forgery.marker())));
    }

    /** Writes every forgery; waits until the aggregator has dead-lettered those it reads. */
    private void inject(final Injector injector) {
        final long now = System.currentTimeMillis();
        List.of(
                        model("model-version-max", 0, model(0).setVersion(Long.MAX_VALUE)),
                        model("model-min-clock-huge", 1, model(1).setMinClock(1_000_000_000_000L)),
                        model("model-shards-2e9", 0, model(0).setShards(2_000_000_000)),
                        command("command-empty-speeds", command(0, 1.0, 1, Map.of())),
                        command("command-max-epoch", command(Long.MAX_VALUE, 1.0, 1, Map.of(WorkerIds.of(0), 1.0))),
                        command("command-negative-share", command(0, -0.5, 1, speeds())),
                        command("command-huge-threads", command(0, 0.5, 1_000_000, speeds())),
                        member("left-of-live-worker", WorkerIds.of(1), WorkerState.LEFT, now),
                        member("join-beyond-count", WorkerIds.of(WORKERS), WorkerState.JOINED, now),
                        invalidSpec(),
                        telemetry("telemetry-beyond-count", WorkerIds.of(WORKERS + 1)),
                        unknownJobTelemetry())
                .forEach(injector::send);
        try {
            injected.addAll(injector.flush());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while injecting", e);
        } catch (final ExecutionException e) {
            throw new IllegalStateException("could not inject", e.getCause());
        }
        await().alias("the aggregator's and orchestrator's dead letters of the forged control records")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> FORGERIES.stream()
                        .filter(forgery -> forgery.reason() != DeadLetterReason.INVALID_MODEL)
                        .allMatch(forgery ->
                                !lettersOf(forgery, readDeadLetters()).isEmpty()));
    }

    /** Shard {@code shard}'s record as the aggregator could write it at version 1. */
    private ModelShard.Builder model(final int shard) {
        final ShardLayout layout = JobSpecs.layout(spec);
        return ModelShard.newBuilder()
                .setJob(JOB)
                .setShard(shard)
                .setShards(SHARDS)
                .setFirstParameter(layout.first(shard))
                .setVersion(1)
                .setMinClock(1)
                .setClocks(Map.of())
                .setValues(FloatPacking.pack(new float[layout.length(shard)]))
                .setUpdatedAt(Instant.now());
    }

    private Injection.Planned model(final String kind, final int shard, final ModelShard.Builder record) {
        return planned(
                kind,
                topics.model().name(),
                ShardKeys.shard(JOB, shard),
                topics.model()
                        .valueSerde()
                        .serializer()
                        .serialize(topics.model().name(), record.build()));
    }

    private static Map<String, Double> speeds() {
        return Map.of(WorkerIds.of(0), 100.0, WorkerIds.of(1), 100.0, WorkerIds.of(2), 100.0);
    }

    private static ResourceCommand command(
            final long epoch, final double share, final int threads, final Map<String, Double> speeds) {
        return ResourceCommand.newBuilder()
                .setJob(JOB)
                .setWorker(WorkerIds.of(0))
                .setEpoch(epoch)
                .setThreads(threads)
                .setBatchShare(share)
                .setReason("forged")
                .setSpeeds(speeds)
                .setIssuedAt(Instant.now())
                .build();
    }

    private Injection.Planned command(final String kind, final ResourceCommand command) {
        return planned(
                kind,
                topics.commands().name(),
                ShardKeys.worker(JOB, command.getWorker()),
                topics.commands()
                        .valueSerde()
                        .serializer()
                        .serialize(topics.commands().name(), command));
    }

    /** A membership record of {@code worker} at clock 0, stamped now as a worker would. */
    private Injection.Planned member(final String kind, final String worker, final WorkerState state, final long now) {
        final WorkerStatus status = WorkerStatus.newBuilder()
                .setJob(JOB)
                .setWorker(worker)
                .setState(state)
                .setClock(0)
                .setTimestamp(Instant.ofEpochMilli(now))
                .build();
        return planned(
                kind,
                topics.membership().name(),
                ShardKeys.worker(JOB, worker),
                topics.membership()
                        .valueSerde()
                        .serializer()
                        .serialize(topics.membership().name(), status));
    }

    /** A telemetry record of {@code worker} at clock 1, a fast one, as a worker would write it. */
    private Injection.Planned telemetry(final String kind, final String worker) {
        final IterationTelemetry telemetry = IterationTelemetry.newBuilder()
                .setJob(JOB)
                .setWorker(worker)
                .setClock(1)
                .setSamples(1_000)
                .setComputeMs(1)
                .setWaitMs(0)
                .setThreads(1)
                .setBatchShare(0.5)
                .setTimestamp(Instant.now())
                .build();
        return planned(
                kind,
                topics.telemetry().name(),
                ShardKeys.worker(JOB, worker),
                topics.telemetry()
                        .valueSerde()
                        .serializer()
                        .serialize(topics.telemetry().name(), telemetry));
    }

    /**
     * Telemetry of worker-000 of a job nobody submitted, keyed as worker-000's own, so that it lands in the partition
     * of its telemetry, before the clocks that follow: neither the aggregator nor the orchestrator sets it aside (a
     * worker id of the right form, a job without a spec), and the dashboard must make no board of it.
     */
    private Injection.Planned unknownJobTelemetry() {
        final IterationTelemetry telemetry = IterationTelemetry.newBuilder()
                .setJob(UNKNOWN_JOB)
                .setWorker(WorkerIds.of(0))
                .setClock(1)
                .setSamples(1_000)
                .setComputeMs(1)
                .setWaitMs(0)
                .setThreads(1)
                .setBatchShare(1.0)
                .setTimestamp(Instant.now())
                .build();
        return planned(
                "telemetry-unknown-job",
                topics.telemetry().name(),
                ShardKeys.worker(JOB, WorkerIds.of(0)),
                topics.telemetry()
                        .valueSerde()
                        .serializer()
                        .serialize(topics.telemetry().name(), telemetry));
    }

    /**
     * The jobs the dashboard lists, once it shows worker-000 past the clock the forgeries were written at (so it has
     * read the record of the unknown job, which is in the same partition before that clock's telemetry).
     */
    private List<String> jobsOnTheDashboard() {
        await().alias("the dashboard shows worker-000 past the forgeries")
                .atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    final HttpResponse<String> snapshot = get("/jobs/" + JOB + "/snapshot");
                    return snapshot.statusCode() == 200
                            && new JsonObject(snapshot.body())
                                    .getJsonArray("workers").stream()
                                            .map(JsonObject.class::cast)
                                            .anyMatch(row -> WorkerIds.of(0).equals(row.getString("worker"))
                                                    && row.getLong("clock", -1L) > INJECTED_AT_CLOCK);
                });
        return new JsonArray(get("/jobs").body())
                .stream().map(job -> ((JsonObject) job).getString("job")).toList();
    }

    private HttpResponse<String> get(final String path) {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create(dashboard + path))
                            .timeout(Duration.ofSeconds(2))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking the dashboard", e);
        }
    }

    /** The running job's spec again, with a shard count no valid spec has. */
    private Injection.Planned invalidSpec() {
        final JobSpec invalid =
                JobSpec.newBuilder(spec).setShards(2_000_000_000).build();
        return planned(
                "invalid-job-spec",
                topics.jobs().name(),
                JOB,
                topics.jobs().valueSerde().serializer().serialize(topics.jobs().name(), invalid));
    }

    private static Injection.Planned planned(
            final String kind, final String topic, final String key, final byte[] value) {
        return new Injection.Planned(kind, topic, null, key, value, Set.of());
    }

    private List<DeadLetter> lettersOf(final Forgery forgery) {
        return lettersOf(forgery, deadLetters);
    }

    private static List<DeadLetter> lettersOf(final Forgery forgery, final List<DeadLetter> letters) {
        return letters.stream()
                .filter(letter -> letter.getError().contains(forgery.marker()))
                .toList();
    }

    private List<DeadLetter> readDeadLetters() {
        return TopicContents.readAll(
                        kafka.bootstrapServers(),
                        topics.deadLetters().name(),
                        new StringDeserializer(),
                        topics.deadLetters().valueSerde().deserializer())
                .stream()
                .map(ConsumerRecord::value)
                .toList();
    }
}
