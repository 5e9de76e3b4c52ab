package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.integration.apps.AppProcess;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.LinearProblem;
import io.paramhub.ml.ShiftedModelPlugin;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.worker.SubmitJobApp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's model jar that no classpath holds, given to the runnable jars by {@code --plugins} (the aggregator and
 * the submitter) and {@code PARAMHUB_PLUGINS} (the worker): a job of its kind trains on the in-process broker to
 * the model the same maths gives without Kafka. Without the plugin the submitter refuses the kind.
 */
@Tag("integration")
class PluginModelIT extends ClusterTestBase {

    private static final String PROVIDER = ShiftedModelPlugin.PROVIDER;

    @Test
    void shouldTrainAPluginsModelKindWhenTheAppsAreGivenItsJar(@TempDir final Path dir) throws Exception {
        // given: the jar in a directory of its own, and the job's options
        final Path plugins = Files.createDirectory(dir.resolve("plugins"));
        ShiftedModelPlugin.write(plugins.resolve("shifted.jar"));
        final Map<String, String> kafkaEnv = Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers(),
                "KAFKA_SCHEMA_REGISTRY_URL", registry.url());
        final List<String> job = List.of(
                "--job",
                "plugin-shifted",
                "--workers",
                "1",
                "--model",
                "shifted",
                "--dataset",
                LinearJobs.DATASET,
                "--epochs",
                "2",
                "--shards",
                "2");

        // when: submitted without the plugin
        final AppProcess.Result refused = submit(kafkaEnv, dir, job);

        // then
        assertThat(refused.exitCode()).as(refused.stderr()).isEqualTo(2);
        assertThat(refused.stderr()).contains("paramhub-submit: --model: unknown model kind 'shifted'");

        final List<AppProcess> apps = new ArrayList<>();
        try {
            // when: the aggregator with --plugins, the job submitted with --plugins, a worker with PARAMHUB_PLUGINS
            final Map<String, String> aggregatorEnv = new HashMap<>(kafkaEnv);
            aggregatorEnv.put("KAFKA_STATE_DIR", dir.resolve("aggregator-state").toString());
            final int aggregatorPort = AppProcess.freePort();
            aggregatorEnv.put("PARAMHUB_HTTP_PORT", Integer.toString(aggregatorPort));
            final AppProcess aggregator = AppProcess.start(
                    "paramhub-aggregator",
                    aggregatorEnv,
                    aggregatorPort,
                    Path.of("target", "plugin-it-aggregator.log"),
                    "--plugins",
                    plugins.toString());
            apps.add(aggregator);
            await().alias("aggregator ready")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> aggregator.status("/health/ready") == 200);
            final List<String> withPlugins = new ArrayList<>(job);
            withPlugins.addAll(List.of("--plugins", plugins.toString()));
            final AppProcess.Result submitted = submit(kafkaEnv, dir, withPlugins);
            assertThat(submitted.exitCode()).as(submitted.stderr()).isZero();
            final Map<String, String> workerEnv = new HashMap<>(kafkaEnv);
            workerEnv.putAll(Map.of(
                    "PARAMHUB_JOB", "plugin-shifted",
                    "PARAMHUB_WORKERS", "1",
                    "PARAMHUB_INDEX", "0",
                    "PARAMHUB_HTTP_PORT", "0",
                    "PARAMHUB_PLUGINS", plugins.toString()));
            final AppProcess worker =
                    AppProcess.start("paramhub-worker", workerEnv, 0, Path.of("target", "plugin-it-worker.log"));
            apps.add(worker);
            final TopicCatalog topics =
                    TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
            final JobSpec spec = TopicContents.values(kafka.bootstrapServers(), topics.jobs()).stream()
                    .filter(candidate -> candidate.getJob().equals("plugin-shifted"))
                    .findFirst()
                    .orElseThrow();
            final LinearProblem problem = LinearJobs.problem();
            final long clocks =
                    (long) new BatchPlan(problem.data().train().size(), spec.getGlobalBatch(), spec.getSeed())
                                    .iterationsPerEpoch()
                            * spec.getEpochs();
            await().alias("the worker trained to the job's last clock and exited")
                    .atMost(Duration.ofSeconds(90))
                    .until(() -> !worker.isAlive());

            // then: each jar said what it loaded, and the model is the one linear regression's maths gives
            assertThat(worker.terminate(Duration.ofSeconds(5)))
                    .as(worker.output())
                    .isZero();
            assertThat(aggregator.output()).contains("plugin jar ", "model kinds [shifted] (" + PROVIDER + ")");
            assertThat(worker.output()).contains("model kinds [shifted] (" + PROVIDER + ")");
            final List<ModelShard> last = lastVersions(topics, spec);
            assertThat(last).extracting(ModelShard::getVersion).containsOnly(clocks);
            assertThat(clocks).isPositive();
            final float[] trained = concat(last, spec.getParameters());
            final JobSpec asLinear = JobSpec.newBuilder(spec).setModel("linear").build();
            assertThat(trained).containsExactly(LinearJobs.bspReference(asLinear, problem));
            final double[] optimum = problem.optimum();
            for (int i = 0; i < optimum.length; i++) {
                assertThat((double) trained[i]).as("parameter %d", i).isCloseTo(optimum[i], within(0.05));
            }
        } finally {
            apps.forEach(AppProcess::close);
        }
    }

    /** Each shard's record of the highest version on {@code model}. */
    private static List<ModelShard> lastVersions(final TopicCatalog topics, final JobSpec spec) {
        final Map<Integer, ModelShard> last = new HashMap<>();
        for (final ModelShard shard : TopicContents.values(kafka.bootstrapServers(), topics.model())) {
            if (shard.getJob().equals(spec.getJob())) {
                last.merge(shard.getShard(), shard, (a, b) -> b.getVersion() >= a.getVersion() ? b : a);
            }
        }
        assertThat(last).hasSize(spec.getShards());
        return last.values().stream()
                .sorted(Comparator.comparingInt(ModelShard::getFirstParameter))
                .toList();
    }

    private static float[] concat(final List<ModelShard> shards, final int parameters) {
        final float[] params = new float[parameters];
        for (final ModelShard shard : shards) {
            final float[] values = FloatPacking.unpack(shard.getValues());
            System.arraycopy(values, 0, params, shard.getFirstParameter(), values.length);
        }
        return params;
    }

    /** {@code paramhub-submit} (the worker jar's {@link SubmitJobApp}) in a JVM of its own. */
    private static AppProcess.Result submit(final Map<String, String> env, final Path dir, final List<String> args)
            throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                AppProcess.JARS.get("paramhub-worker").toString(),
                SubmitJobApp.class.getName()));
        command.addAll(args);
        final Path out = Files.createTempFile(dir, "submit", ".out");
        final Path err = Files.createTempFile(dir, "submit", ".err");
        final ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("KAFKA_") || name.startsWith("PARAMHUB_"));
        builder.environment().putAll(env);
        final Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("paramhub-submit did not exit within 60 s");
        }
        return new AppProcess.Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
