package io.paramhub.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.launcher.OpsEndpoints;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * On a Docker host: the app images built from {@code docker/*.Dockerfile} train a small job against
 * {@code apache/kafka:4.3.1} and Confluent's schema registry, wired as in {@code compose.yaml} by
 * environment variables; the aggregator's {@code /metrics} shows every gradient applied. Skipped without
 * Docker.
 */
@Tag("integration")
@Testcontainers(disabledWithoutDocker = true)
class DockerStackIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String JOB = "docker-it-linear";
    private static final int WORKERS = 2;
    private static final int SHARDS = 4;
    private static final int EPOCHS = 1;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void shouldTrainAJobWhenTheAppImagesRunAgainstTheOfficialKafkaImage() throws Exception {
        try (Network network = Network.newNetwork();
                KafkaContainer kafka = new KafkaContainer(DockerImageName.parse("apache/kafka:4.3.1"))
                        .withNetwork(network)
                        .withListener("kafka:19092");
                GenericContainer<?> registry = new GenericContainer<>(
                                DockerImageName.parse("confluentinc/cp-schema-registry:7.9.0"))
                        .withNetwork(network)
                        .withNetworkAliases("schema-registry")
                        .withEnv("SCHEMA_REGISTRY_HOST_NAME", "schema-registry")
                        .withEnv("SCHEMA_REGISTRY_LISTENERS", "http://0.0.0.0:8081")
                        .withEnv("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "PLAINTEXT://kafka:19092")
                        .withExposedPorts(8081)
                        .waitingFor(Wait.forHttp("/subjects").forStatusCode(200))) {
            // given
            kafka.start();
            registry.start();
            final Map<String, String> connection = Map.of(
                    "KAFKA_BOOTSTRAP_SERVERS",
                    "kafka:19092",
                    "KAFKA_SCHEMA_REGISTRY_URL",
                    "http://schema-registry:8081");
            final List<GenericContainer<?>> apps = new ArrayList<>();
            try {
                final GenericContainer<?> aggregator =
                        app("aggregator", network, connection, 8090).withEnv("PARAMHUB_REPLICATION_FACTOR", "1");
                aggregator.start();
                apps.add(aggregator);

                // when
                final GenericContainer<?> submit = new GenericContainer<>(image("worker"))
                        .withNetwork(network)
                        .withEnv(connection)
                        .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint(
                                "java", "-cp", "/app/paramhub-worker.jar", "io.paramhub.worker.SubmitJobApp"))
                        .withEnv("PARAMHUB_JOB", JOB)
                        .withEnv("PARAMHUB_WORKERS", Integer.toString(WORKERS))
                        .withEnv("PARAMHUB_EPOCHS", Integer.toString(EPOCHS))
                        .withStartupCheckStrategy(new OneShotStartupCheckStrategy().withTimeout(Duration.ofMinutes(2)));
                submit.start();
                final List<GenericContainer<?>> workers = new ArrayList<>();
                for (int index = 0; index < WORKERS; index++) {
                    final GenericContainer<?> worker = app("worker", network, connection, 8092)
                            .withEnv("PARAMHUB_JOB", JOB)
                            .withEnv("PARAMHUB_WORKERS", Integer.toString(WORKERS))
                            .withEnv("PARAMHUB_INDEX", Integer.toString(index))
                            .withEnv("PARAMHUB_STAY_UP", "true");
                    worker.start();
                    workers.add(worker);
                    apps.add(worker);
                }
                for (final GenericContainer<?> worker : workers) {
                    await().alias("worker finished the job")
                            .atMost(Duration.ofMinutes(5))
                            .pollInterval(Duration.ofSeconds(1))
                            .until(() -> get(worker, OpsEndpoints.READY).contains("job is finished"));
                }
                final String metrics = get(aggregator, OpsEndpoints.METRICS);

                // then: 32 clocks of 4096 samples in batches of 128, every worker's gradient for every shard
                final double applied = metrics.lines()
                        .filter(line -> line.startsWith("paramhub_aggregator_gradients_applied_total"))
                        .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                        .sum();
                assertThat(applied).isEqualTo(32.0 * EPOCHS * WORKERS * SHARDS);
            } finally {
                apps.forEach(GenericContainer::stop);
            }
        }
    }

    private static GenericContainer<?> app(
            final String name, final Network network, final Map<String, String> env, final int port) {
        return new GenericContainer<>(image(name))
                .withNetwork(network)
                .withNetworkAliases(name)
                .withEnv(env)
                .withEnv("PARAMHUB_HTTP_HOST", "0.0.0.0")
                .withExposedPorts(port)
                .waitingFor(
                        Wait.forHttp(OpsEndpoints.LIVE).forStatusCode(200).withStartupTimeout(Duration.ofMinutes(3)));
    }

    private static ImageFromDockerfile image(final String app) {
        return new ImageFromDockerfile("paramhub/" + app + "-it", false)
                .withFileFromPath(".", ROOT)
                .withDockerfile(ROOT.resolve("docker").resolve(app + ".Dockerfile"));
    }

    private static String get(final GenericContainer<?> container, final String path) throws Exception {
        final URI uri = URI.create("http://" + container.getHost() + ":"
                + container.getMappedPort(container.getExposedPorts().get(0)) + path);
        return HTTP.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
