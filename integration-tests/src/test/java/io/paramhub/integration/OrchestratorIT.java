package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.integration.apps.PrometheusText;
import io.paramhub.launcher.AppMetrics;
import io.paramhub.launcher.OpsEndpoints;
import io.paramhub.launcher.Readiness;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.Evaluation;
import io.paramhub.ml.LinearProblem;
import io.paramhub.ml.LinearRegression;
import io.paramhub.orchestrator.OrchestratorRunner;
import io.paramhub.orchestrator.StragglerGauges;
import io.paramhub.orchestrator.http.WorkersQueryServer;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.orchestrator.OrchestratorMetrics;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import io.paramhub.worker.ComputeEmulation;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The orchestrator app on a real broker finds the worker that an emulated slowdown makes a straggler. */
@Tag("integration")
class OrchestratorIT extends ClusterTestBase {

    @Test
    void shouldFlagTheSlowWorkerAndGiveItASmallerShare(@TempDir final Path dir) throws InterruptedException {
        // given: every sample costs 300 us, and worker-002 is 3x slower
        final Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registry.url());
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("orchestrator").toString());
        final JobSpec spec = LinearJobs.job("orchestrated-linear", 3, 4, 1);
        final Map<Integer, ComputeEmulation> emulation = Map.of(
                0,
                new ComputeEmulation(1.0, 0, 300),
                1,
                new ComputeEmulation(1.0, 0, 300),
                2,
                new ComputeEmulation(3.0, 0, 300));

        // when
        try (OrchestratorRunner orchestrator = OrchestratorRunner.start(
                props, TopicCatalog.DEFAULT_PREFIX, TopicSetup.defaults(), OrchestratorSettings.defaults())) {
            new TrainingRun(
                            kafka.bootstrapServers(),
                            registry.url(),
                            TopicCatalog.DEFAULT_PREFIX,
                            dir.resolve("aggregator"))
                    .withEmulation(emulation)
                    .run(spec, LinearJobs.problem().data(), RunListener.NONE);
            await().alias("a command for the straggler")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> !commandsFor(spec.getJob(), "worker-002").isEmpty());
        }

        // then
        final ResourceCommand command = commandsFor(spec.getJob(), "worker-002").get(0);
        assertThat(command.getReason()).contains("worker-002 is a straggler");
        assertThat(command.getBatchShare()).isLessThan(1.0 / 3);
        final Map<String, Double> speeds = command.getSpeeds();
        assertThat(speeds.get("worker-002") / speeds.get("worker-000")).isBetween(0.2, 0.45);
        assertThat(commandsFor(spec.getJob(), "worker-000").get(0).getBatchShare())
                .isGreaterThan(1.0 / 3);
    }

    @Test
    void shouldCutTheFastWorkersWaitAtTheBarrierWithoutChangingTheMaths(@TempDir final Path dir)
            throws InterruptedException {
        // given: four workers, compute dominates a Kafka round trip (5 ms a sample: 160 ms for an equal
        // share, so the assertion holds even when a loaded machine makes a round trip 100 ms), worker-002 3x slower;
        // one epoch, 32 clocks: the plan made at clock 2 applies from clock 4, so 27 of the 29 clocks measured
        // from clock 3 on are balanced (a plan 3 clocks, 1.5 s, later would still meet the quarter)
        final Map<Integer, ComputeEmulation> emulation = Map.of(
                0,
                new ComputeEmulation(1.0, 0, 5_000),
                1,
                new ComputeEmulation(1.0, 0, 5_000),
                2,
                new ComputeEmulation(3.0, 0, 5_000),
                3,
                new ComputeEmulation(1.0, 0, 5_000));
        final Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registry.url());
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("orchestrator").toString());
        final LinearProblem problem = LinearJobs.problem();
        final WorkerTally without = new WorkerTally(3);
        final WorkerTally with = new WorkerTally(3);

        // when
        new TrainingRun(kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, dir.resolve("a"))
                .withEmulation(emulation)
                .run(LinearJobs.job("unbalanced", 4, 4, 1), problem.data(), without);
        final TrainingRun.Result balanced;
        final JsonObject workersView;
        final PrometheusText meters;
        try (AppMetrics metrics = AppMetrics.create(OrchestratorRunner.DEFAULT_APPLICATION_ID);
                OrchestratorRunner orchestrator = OrchestratorRunner.start(
                        props,
                        TopicCatalog.DEFAULT_PREFIX,
                        TopicSetup.defaults(),
                        OrchestratorSettings.defaults(),
                        new OrchestratorMetrics(metrics.registry()));
                WorkersQueryServer http = WorkersQueryServer.start(
                        orchestrator.streams(),
                        "127.0.0.1",
                        0,
                        new OpsEndpoints(metrics, Readiness.of(orchestrator.streams())))) {
            StragglerGauges.register(metrics, orchestrator.streams());
            balanced = new TrainingRun(
                            kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, dir.resolve("b"))
                    .withEmulation(emulation)
                    .run(LinearJobs.job("balanced", 4, 4, 1), problem.data(), with);
            workersView = getJson("http://127.0.0.1:" + http.port() + "/jobs/balanced/workers");
            meters = PrometheusText.parse(getText("http://127.0.0.1:" + http.port() + OpsEndpoints.METRICS));
        }

        // then: the orchestrator's /metrics show one straggler, and one command per worker for each plan issued
        final Map<String, String> balancedJob = Map.of("job", "balanced");
        assertThat(meters.sum("paramhub_orchestrator_stragglers", balancedJob)).isEqualTo(1);
        final double issued = meters.sum("paramhub_orchestrator_commands_issued_total", balancedJob);
        assertThat(issued).isGreaterThanOrEqualTo(4);
        assertThat(issued % 4).isZero();
        // and from the third iteration on, the fast workers wait at most a quarter as long
        final double waitWithout = without.meanWait("worker-000", "worker-001", "worker-003");
        final double waitWith = with.meanWait("worker-000", "worker-001", "worker-003");
        LoggerFactory.getLogger(OrchestratorIT.class)
                .info(
                        "fast workers' mean wait per iteration from clock 3: {} ms without the orchestrator, {} ms with it",
                        String.format("%.1f", waitWithout),
                        String.format("%.1f", waitWith));
        assertThat(waitWith)
                .as(
                        "fast workers' mean wait with the orchestrator (%.1f ms) vs without (%.1f ms)",
                        waitWith, waitWithout)
                .isLessThanOrEqualTo(0.25 * waitWithout);
        assertThat(with.appliedPlan()).as("workers applied a plan").isTrue();
        // the orchestrator's endpoint shows the straggler and its smaller planned share
        final JsonObject slow = workersView.getJsonArray("workers").stream()
                .map(JsonObject.class::cast)
                .filter(worker -> "worker-002".equals(worker.getString("worker")))
                .findFirst()
                .orElseThrow();
        assertThat(slow.getBoolean("straggler")).isTrue();
        assertThat(slow.getDouble("plannedShare")).isLessThan(1.0 / 4);
        assertThat(workersView.getLong("epoch")).isGreaterThanOrEqualTo(0);
        // and the maths is the same: same batches, split differently
        final double rmse = Evaluation.rmse(
                new LinearRegression(16),
                balanced.finalParameters(),
                problem.data().train());
        final double reference = Evaluation.rmse(
                new LinearRegression(16),
                LinearJobs.bspReference(LinearJobs.job("reference", 4, 4, 1), problem),
                problem.data().train());
        assertThat(rmse).isCloseTo(reference, Assertions.within(0.01 * reference));
    }

    @Test
    void shouldGiveTheStragglerSpareThreadsAndTheStragglerShouldUseThem(@TempDir final Path dir)
            throws InterruptedException {
        // given: three workers with 2 threads each, worker-002 3x slower, 4 spare threads, only the
        // resources lever on: the straggler needs 6 threads to match the median
        final Map<Integer, ComputeEmulation> emulation = Map.of(
                0,
                new ComputeEmulation(1.0, 0, 3_000),
                1,
                new ComputeEmulation(1.0, 0, 3_000),
                2,
                new ComputeEmulation(3.0, 0, 3_000));
        final Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registry.url());
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("orchestrator").toString());
        final OrchestratorSettings resourcesOnly =
                OrchestratorSettings.defaults().withLoadLever(false).withThreadBudget(10);
        final LinearProblem problem = LinearJobs.problem();
        final JobSpec spec = LinearJobs.job("threaded", 3, 4, 1);
        final WorkerTally tally = new WorkerTally(16);

        // when
        final TrainingRun.Result result;
        try (OrchestratorRunner orchestrator =
                OrchestratorRunner.start(props, TopicCatalog.DEFAULT_PREFIX, TopicSetup.defaults(), resourcesOnly)) {
            result = new TrainingRun(
                            kafka.bootstrapServers(),
                            registry.url(),
                            TopicCatalog.DEFAULT_PREFIX,
                            dir.resolve("aggregator"))
                    .withEmulation(emulation)
                    .withWorkerThreads(2)
                    .run(spec, problem.data(), tally);
        }

        // then: the straggler computes on 6 threads, as fast as the others on 2, shares unchanged
        assertThat(tally.lastThreads("worker-002")).isEqualTo(6);
        assertThat(tally.lastThreads("worker-000")).isEqualTo(2);
        assertThat(tally.meanCompute("worker-002") / tally.meanCompute("worker-000"))
                .isBetween(0.7, 1.4);
        assertThat(commandsFor(spec.getJob(), "worker-002"))
                .isNotEmpty()
                .allSatisfy(command -> assertThat(command.getBatchShare()).isCloseTo(1.0 / 3, Assertions.within(0.01)));
        final double rmse = Evaluation.rmse(
                new LinearRegression(16),
                result.finalParameters(),
                problem.data().train());
        final double reference = Evaluation.rmse(
                new LinearRegression(16),
                LinearJobs.bspReference(LinearJobs.job("reference", 3, 4, 1), problem),
                problem.data().train());
        assertThat(rmse).isCloseTo(reference, Assertions.within(0.01 * reference));
    }

    /**
     * Per worker, from the given clock on: mean barrier wait and compute per iteration, the last
     * thread count, and whether a plan was applied.
     */
    private static final class WorkerTally implements RunListener {
        private final long fromClock;
        private final Map<String, double[]> waits = new ConcurrentHashMap<>();
        private volatile boolean appliedPlan;

        WorkerTally(final long fromClock) {
            this.fromClock = fromClock;
        }

        @Override
        public void onIteration(final IterationTelemetry telemetry) {
            if (telemetry.getCommandEpoch() >= 0) {
                appliedPlan = true;
            }
            if (telemetry.getClock() >= fromClock) {
                waits.computeIfAbsent(telemetry.getWorker(), worker -> new double[4]);
                synchronized (waits) {
                    final double[] sums = waits.get(telemetry.getWorker());
                    sums[0] += telemetry.getWaitMs();
                    sums[1]++;
                    sums[2] += telemetry.getComputeMs();
                    sums[3] = telemetry.getThreads();
                }
            }
        }

        double meanWait(final String... workers) {
            double total = 0;
            double count = 0;
            synchronized (waits) {
                for (final String worker : workers) {
                    total += waits.get(worker)[0];
                    count += waits.get(worker)[1];
                }
            }
            return total / count;
        }

        double meanCompute(final String worker) {
            synchronized (waits) {
                return waits.get(worker)[2] / waits.get(worker)[1];
            }
        }

        int lastThreads(final String worker) {
            synchronized (waits) {
                return (int) waits.get(worker)[3];
            }
        }

        boolean appliedPlan() {
            return appliedPlan;
        }
    }

    private static JsonObject getJson(final String url) {
        try {
            final HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            return new JsonObject(response.body());
        } catch (final IOException | InterruptedException e) {
            throw new IllegalStateException("GET " + url + " failed", e);
        }
    }

    private static String getText(final String url) {
        try {
            final HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            return response.body();
        } catch (final IOException | InterruptedException e) {
            throw new IllegalStateException("GET " + url + " failed", e);
        }
    }

    /** The commands of one worker of one job (the class's tests share a cluster, and worker names). */
    private static List<ResourceCommand> commandsFor(final String job, final String worker) {
        final TopicCatalog topics =
                TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
        return TopicContents.readAll(
                        kafka.bootstrapServers(),
                        topics.commands().name(),
                        new StringDeserializer(),
                        topics.commands().valueSerde().deserializer())
                .stream()
                .map(ConsumerRecord::value)
                .filter(command -> job.equals(command.getJob()) && worker.equals(command.getWorker()))
                .toList();
    }
}
