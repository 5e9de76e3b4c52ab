package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.integration.apps.AppProcess;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.ModelFingerprint;
import io.paramhub.topology.client.ModelView;
import io.paramhub.topology.client.TopicReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From the demo to a cluster: {@code paramhub jobs submit examples/jobs/mlp.yaml}, submitted before any app runs,
 * is trained by an aggregator, an orchestrator and four workers started as processes of their own, and its final
 * model is the one {@code paramhub demo} trains with the same settings, bit for bit.
 */
@Tag("integration")
class JobFileSubmitIT extends ClusterTestBase {

    private static final int WORKERS = 4;
    private static final int TRAIN = 1024;
    private static final int BATCH = 128;
    private static final Path MLP_YAML = Path.of("..", "examples", "jobs", "mlp.yaml");

    @AfterEach
    void forgetDataRoots() {
        System.clearProperty("paramhub.data.roots");
    }

    @Test
    void shouldTrainTheDemosModelBitForBitWhenTheMlpJobFileIsSubmittedToSeparateApps(@TempDir final Path dir)
            throws Exception {
        // given: 1,024 Fashion-MNIST images (8 clocks an epoch), under a data root of every process
        final String dataset = "fashion-mnist:" + FashionMnistSlice.write(dir.resolve("fashion"), TRAIN, 256);
        System.setProperty("paramhub.data.roots", dir.toString());
        final Path report = dir.resolve("demo.json");
        final CliRun demo = CliRun.of(
                "demo",
                "--model",
                "mlp",
                "--workers",
                "4",
                "--epochs",
                "1",
                "--dataset",
                dataset,
                "--job",
                "demo-mlp",
                "--report",
                report.toString());
        assertThat(demo.code()).as(demo.err()).isZero();

        // when: the job file, with the epochs and the data set given beside it, then the apps
        final CliRun submit = CliRun.of(
                "jobs",
                "submit",
                MLP_YAML.toString(),
                "--job",
                "file-mlp",
                "--epochs",
                "1",
                "--dataset",
                dataset,
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--registry-url",
                registry.url());
        assertThat(submit.code()).as(submit.err()).isZero();
        final List<AppProcess> apps = new ArrayList<>();
        try {
            apps.addAll(startApps(dir));
            final ModelView model = finalModel(spec("file-mlp"), TRAIN / BATCH);

            // then: Adam with a cosine over the 8 clocks of the one epoch asked for, and the demo's model
            final JobSpec spec = spec("file-mlp");
            assertThat(spec.getModel()).isEqualTo("mlp");
            assertThat(spec.getOptimizer()).isEqualTo(OptimizerKind.ADAM);
            assertThat(spec.getLearningRateSchedule()).isEqualTo(LearningRateScheduleKind.COSINE);
            assertThat(spec.getDecayClocks()).isEqualTo(TRAIN / BATCH);
            assertThat(spec.getExpectedWorkers()).isEqualTo(WORKERS);
            final JsonNode demoReport = new ObjectMapper().readTree(report.toFile());
            assertThat(demoReport.get("iterations").asLong()).isEqualTo(TRAIN / BATCH);
            assertThat(ModelFingerprint.sha256(model.assemble(spec.getParameters())))
                    .isEqualTo(demoReport.get("model_sha256").asText());
        } finally {
            apps.forEach(AppProcess::close);
        }
    }

    /** The aggregator, an orchestrator that watches but moves no load, and the workers, each a JVM of its own. */
    private static List<AppProcess> startApps(final Path dir) throws Exception {
        final Map<String, String> env = Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers(),
                "KAFKA_SCHEMA_REGISTRY_URL", registry.url(),
                "PARAMHUB_DATA_ROOTS", dir.toString());
        final List<AppProcess> apps = new ArrayList<>();
        apps.add(app("paramhub-aggregator", env, dir));
        // shares and threads as the demo's: the levers would change which samples a worker trains, or how it sums
        apps.add(app("paramhub-orchestrator", env, dir, "--no-load-lever", "--no-resource-lever", "--no-dashboard"));
        for (int index = 0; index < WORKERS; index++) {
            final Map<String, String> worker = new HashMap<>(env);
            worker.put("PARAMHUB_JOB", "file-mlp");
            worker.put("PARAMHUB_WORKERS", Integer.toString(WORKERS));
            worker.put("PARAMHUB_INDEX", Integer.toString(index));
            apps.add(app("paramhub-worker", worker, dir));
        }
        return apps;
    }

    private static AppProcess app(
            final String name, final Map<String, String> env, final Path dir, final String... args) throws Exception {
        final Map<String, String> own = new HashMap<>(env);
        final int port = AppProcess.freePort();
        own.put("PARAMHUB_HTTP_PORT", Integer.toString(port));
        if (!name.equals("paramhub-worker")) {
            own.put("KAFKA_STATE_DIR", dir.resolve(name + "-state").toString());
        }
        final String log = name + "-" + own.getOrDefault("PARAMHUB_INDEX", "0");
        return AppProcess.start(name, own, port, Path.of("target", "job-file-it-" + log + ".log"), args);
    }

    private static JobSpec spec(final String job) {
        return TopicContents.values(kafka.bootstrapServers(), topics().jobs()).stream()
                .filter(spec -> spec != null && spec.getJob().equals(job))
                .reduce((first, second) -> second)
                .orElseThrow();
    }

    private static ModelView finalModel(final JobSpec spec, final long clocks) {
        final ModelView view = new ModelView(spec.getJob(), spec.getShards());
        try (TopicReader<String, ModelShard> reader = new TopicReader<>(topics().model(), client())) {
            await().alias("the model of " + spec.getJob() + " at clock " + clocks)
                    .atMost(Duration.ofSeconds(240))
                    .until(() -> {
                        reader.poll(Duration.ofMillis(100), record -> view.offer(record.value()));
                        return view.complete() && view.minClock() >= clocks;
                    });
        }
        return view;
    }

    private static TopicCatalog topics() {
        return TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
    }

    private static Properties client() {
        final Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return props;
    }
}
