package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.avro.JobSpec;
import io.paramhub.integration.apps.AppProcess;
import io.paramhub.integration.apps.ObservabilityFiles;
import io.paramhub.integration.apps.PromQlNames;
import io.paramhub.integration.apps.PrometheusText;
import io.paramhub.launcher.StreamsAppLauncher;
import io.paramhub.ml.BatchPlan;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobSubmitter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.CommonClientConfigs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jars of the aggregator, the orchestrator and two workers, configured only through KAFKA_* and
 * PARAMHUB_* variables, train a job on the in-process broker; their {@code /metrics} show our meters with the
 * values the run implies, Kafka's client and Streams meters, and every metric that {@code docker/}'s Grafana
 * dashboard and Prometheus alert rules query; and each app shuts down cleanly on SIGTERM.
 */
@Tag("integration")
class AppMetricsIT extends ClusterTestBase {

    private static final int WORKERS = 2;
    private static final int SHARDS = 4;
    /** Series that Prometheus itself adds to every target's. */
    private static final Set<String> PROMETHEUS_OWN = Set.of("up");

    @Test
    void shouldServeMetersConsistentWithTheRunWhenTheAggregatorAndWorkersRunAsJars(@TempDir final Path dir)
            throws Exception {
        // given
        final JobSpec spec = LinearJobs.job("metrics-linear", WORKERS, SHARDS, 1);
        final long clocks =
                new BatchPlan(LinearJobs.problem().data().train().size(), spec.getGlobalBatch(), spec.getSeed())
                                .iterationsPerEpoch()
                        * spec.getEpochs();
        final Map<String, String> kafkaEnv = Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers(),
                "KAFKA_SCHEMA_REGISTRY_URL", registry.url());
        final List<AppProcess> apps = new ArrayList<>();
        try {
            final Map<String, String> aggregatorEnv = new HashMap<>(kafkaEnv);
            aggregatorEnv.put("KAFKA_STATE_DIR", dir.resolve("aggregator-state").toString());
            aggregatorEnv.put("PARAMHUB_HTTP_PORT", Integer.toString(AppProcess.freePort()));
            final AppProcess aggregator = AppProcess.start(
                    "paramhub-aggregator",
                    aggregatorEnv,
                    Integer.parseInt(aggregatorEnv.get("PARAMHUB_HTTP_PORT")),
                    Path.of("target", "metrics-it-aggregator.log"));
            apps.add(aggregator);
            await().alias("aggregator ready")
                    .atMost(Duration.ofSeconds(240))
                    .until(() -> aggregator.status("/health/ready") == 200);
            final Map<String, String> orchestratorEnv = new HashMap<>(kafkaEnv);
            orchestratorEnv.put(
                    "KAFKA_STATE_DIR", dir.resolve("orchestrator-state").toString());
            orchestratorEnv.put("PARAMHUB_HTTP_PORT", Integer.toString(AppProcess.freePort()));
            final AppProcess orchestrator = AppProcess.start(
                    "paramhub-orchestrator",
                    orchestratorEnv,
                    Integer.parseInt(orchestratorEnv.get("PARAMHUB_HTTP_PORT")),
                    Path.of("target", "metrics-it-orchestrator.log"));
            apps.add(orchestrator);
            await().alias("orchestrator ready")
                    .atMost(Duration.ofSeconds(240))
                    .until(() -> orchestrator.status("/health/ready") == 200);

            // when
            JobSubmitter.submit(
                    TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()))
                            .jobs(),
                    client(),
                    spec);
            final List<AppProcess> workers = new ArrayList<>();
            for (int index = 0; index < WORKERS; index++) {
                final Map<String, String> env = new HashMap<>(kafkaEnv);
                final int port = AppProcess.freePort();
                env.putAll(Map.of(
                        "PARAMHUB_JOB",
                        spec.getJob(),
                        "PARAMHUB_WORKERS",
                        Integer.toString(WORKERS),
                        "PARAMHUB_INDEX",
                        Integer.toString(index),
                        "PARAMHUB_HTTP_PORT",
                        Integer.toString(port),
                        "PARAMHUB_STAY_UP",
                        "true"));
                final AppProcess worker = AppProcess.start(
                        "paramhub-worker", env, port, Path.of("target", "metrics-it-worker-" + index + ".log"));
                workers.add(worker);
                apps.add(worker);
            }
            // a worker's own Kafka clients report while it trains (they close, and their meters go, at the end)
            final AtomicReference<String> trainingScrape = new AtomicReference<>("");
            await().alias("worker-000's producer meters")
                    .atMost(Duration.ofSeconds(240))
                    .until(() -> {
                        final var scraped = workers.get(0).get("/metrics");
                        if (scraped != null) {
                            trainingScrape.set(scraped.body());
                        }
                        return scraped != null
                                && PrometheusText.parse(scraped.body()).sum("kafka_producer_record_send", Map.of())
                                        >= SHARDS;
                    });
            for (final AppProcess worker : workers) {
                await().alias("worker trained to the last clock")
                        .atMost(Duration.ofSeconds(240))
                        .until(() -> {
                            final var ready = worker.get("/health/ready");
                            return ready != null
                                    && ready.statusCode() == 503
                                    && ready.body().contains("job is finished");
                        });
            }
            final String aggregatorScrape = aggregator.get("/metrics").body();
            Files.writeString(Path.of("target", "metrics-it-aggregator.prom"), aggregatorScrape);
            final PrometheusText aggregatorMeters = PrometheusText.parse(aggregatorScrape);
            final List<PrometheusText> workerMeters = new ArrayList<>();
            for (int index = 0; index < WORKERS; index++) {
                final String scrape = workers.get(index).get("/metrics").body();
                Files.writeString(Path.of("target", "metrics-it-worker-" + index + ".prom"), scrape);
                workerMeters.add(PrometheusText.parse(scrape));
            }

            // then: every worker's gradient for every shard and clock was applied once, none dead-lettered
            assertThat(aggregatorMeters.sum("paramhub_aggregator_gradients_applied_total", Map.of()))
                    .isEqualTo((double) clocks * WORKERS * SHARDS);
            assertThat(aggregatorMeters.sum("paramhub_aggregator_dead_letters_total", Map.of()))
                    .isZero();
            assertThat(aggregatorMeters.sum("paramhub_aggregator_staleness_versions_count", Map.of()))
                    .isEqualTo((double) clocks * WORKERS * SHARDS);
            assertThat(aggregatorMeters.sum("paramhub_aggregator_staleness_versions_max", Map.of()))
                    .isZero();
            for (int shard = 0; shard < SHARDS; shard++) {
                final Map<String, String> labels = Map.of("job", spec.getJob(), "shard", Integer.toString(shard));
                assertThat(aggregatorMeters.sum("paramhub_aggregator_model_version", labels))
                        .isEqualTo(clocks);
                assertThat(aggregatorMeters.sum("paramhub_aggregator_model_min_clock", labels))
                        .isEqualTo(clocks);
            }
            assertThat(aggregatorMeters.hasPrefix("kafka_stream_"))
                    .as("Kafka Streams meters")
                    .isTrue();
            assertThat(aggregatorMeters.hasPrefix("kafka_consumer_"))
                    .as("Kafka consumer meters")
                    .isTrue();
            assertThat(aggregatorMeters.hasPrefix("jvm_memory_used_bytes"))
                    .as("JVM meters")
                    .isTrue();
            for (int index = 0; index < WORKERS; index++) {
                final PrometheusText meters = workerMeters.get(index);
                final Map<String, String> worker =
                        Map.of("job", spec.getJob(), "worker", String.format("worker-%03d", index));
                assertThat(meters.sum("paramhub_worker_iterations_total", worker))
                        .isEqualTo(clocks);
                assertThat(meters.sum("paramhub_worker_samples_total", worker)).isPositive();
                assertThat(meters.sum("paramhub_worker_iteration_compute_seconds_count", worker))
                        .isEqualTo(clocks);
                assertThat(meters.sum("paramhub_worker_iteration_compute_seconds_sum", worker))
                        .isPositive();
                assertThat(meters.sum("paramhub_worker_iteration_wait_seconds_count", worker))
                        .isEqualTo(clocks);
                assertThat(meters.sum("paramhub_worker_clock", worker)).isEqualTo(clocks - 1);
                assertThat(meters.sum("paramhub_worker_batch_share", worker)).isBetween(0.0, 1.0);
                assertThat(meters.sum("paramhub_worker_loss", worker)).isPositive();
                assertThat(meters.hasPrefix("jvm_memory_used_bytes"))
                        .as("JVM meters")
                        .isTrue();
            }
            // the orchestrator moves batch shares between the workers, but every clock covers the whole global batch
            assertThat(workerMeters.stream()
                            .mapToDouble(meters -> meters.sum("paramhub_worker_samples_total", Map.of()))
                            .sum())
                    .isEqualTo((double) clocks * spec.getGlobalBatch());
            // and every metric the dashboard and the alert rules query is served by some app
            await().alias("the orchestrator's straggler gauge of the job")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> PrometheusText.parse(
                                    orchestrator.get("/metrics").body())
                            .hasPrefix("paramhub_orchestrator_stragglers"));
            final String orchestratorScrape = orchestrator.get("/metrics").body();
            Files.writeString(Path.of("target", "metrics-it-orchestrator.prom"), orchestratorScrape);
            final Set<String> served = new TreeSet<>(PROMETHEUS_OWN);
            for (final String scrape : List.of(aggregatorScrape, orchestratorScrape, trainingScrape.get())) {
                PrometheusText.parse(scrape).samples().forEach(sample -> served.add(sample.name()));
            }
            workerMeters.forEach(meters -> meters.samples().forEach(sample -> served.add(sample.name())));
            final Map<String, String> queries = new LinkedHashMap<>(ObservabilityFiles.dashboardQueries());
            queries.putAll(ObservabilityFiles.ruleQueries());
            assertThat(queries).as("dashboard and rule queries").hasSizeGreaterThan(20);
            final List<String> unserved = new ArrayList<>();
            queries.forEach((where, expr) -> {
                final Set<String> names = PromQlNames.of(expr);
                if (names.isEmpty()) {
                    unserved.add(where + " queries no metric: " + expr);
                }
                names.stream()
                        .filter(name -> !served.contains(name))
                        .forEach(name -> unserved.add(where + " queries " + name + ", which no app serves"));
            });
            assertThat(unserved).isEmpty();
            assertThat(ObservabilityFiles.ruleProblems()).isEmpty();

            // and every app stops cleanly on SIGTERM (a JVM stopped by SIGTERM exits with 128 + 15)
            for (final AppProcess app : apps) {
                assertThat(app.terminate(Duration.ofSeconds(60)))
                        .as("exit code after SIGTERM")
                        .isEqualTo(143);
                assertThat(app.output()).contains(StreamsAppLauncher.SHUT_DOWN_CLEANLY);
            }
        } finally {
            apps.forEach(AppProcess::close);
        }
    }

    private static Properties client() {
        final Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return props;
    }
}
