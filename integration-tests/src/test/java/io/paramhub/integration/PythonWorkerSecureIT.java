package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.embedded.secure.SelfSignedCertificates;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.registry.RegistryAccess;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.testing.KafkaTestCluster;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.client.ModelView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Python worker whose schema registry serves HTTPS with a self-signed certificate and asks for basic auth, as
 * {@code paramhub up --secure}'s does: the worker gives it the credentials and the CA file. (Kafka's own SASL_SSL
 * with SCRAM is not tried here: Debian's librdkafka 2.0.2 cannot log in with SCRAM to a Kafka 4 broker, a
 * librdkafka bug fixed in 2.6.1.)
 */
@Tag("integration")
class PythonWorkerSecureIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String USER = "trainer";
    private static final String PASSWORD = "trainer-secret";

    @Test
    void shouldTrainWhenTheRegistryServesHttpsAndAsksForBasicAuth(@TempDir final Path dir) throws Exception {
        // given
        final SelfSignedCertificates certificates =
                SelfSignedCertificates.create(dir.resolve("certs"), "store-secret", 1);
        final Path certificate = certificates.keyStore().resolveSibling("server.crt");
        try (KafkaTestCluster kafka = KafkaTestCluster.start();
                SchemaRegistryServer registry = SchemaRegistryServer.start(
                        Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                        "_schemas",
                        "127.0.0.1",
                        0,
                        RegistryAccess.withPasswords(
                                certificates.keyStore(), certificates.password(), Map.of(USER, PASSWORD)))) {
            final KafkaConnection connection = KafkaConnection.of(settings(kafka, registry, certificates));
            final TopicCatalog topics = connection.topics(TopicCatalog.DEFAULT_PREFIX);
            final Properties streams = connection.streams();
            streams.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("streams").toString());
            final JobSpec spec = PythonJobs.softmax("python-secure", 1, 1, 10_000);
            try (AggregatorRunner aggregator =
                    AggregatorRunner.start(streams, TopicCatalog.DEFAULT_PREFIX, TopicSetup.defaults())) {
                JobSubmitter.submit(topics.jobs(), connection.client(), spec);

                // when
                final Path log = dir.resolve("worker-0.log");
                final Process worker = PythonProcesses.startWorker(
                        log,
                        kafka.bootstrapServers(),
                        registry.url(),
                        spec.getJob(),
                        0,
                        1,
                        dir,
                        "--registry-auth",
                        USER + ":" + PASSWORD,
                        "--registry-ca",
                        certificate.toString());

                // then
                final int exit = PythonProcesses.awaitExit(worker, TIMEOUT.toSeconds());
                final String output = Files.readString(log);
                System.out.println("worker 0:\n" + output);
                assertThat(registry.url()).startsWith("https://");
                assertThat(exit).as(output).isZero();
                final ModelView model = PythonJobs.finalModel(topics, connection.client(), spec, TIMEOUT);
                assertThat(model.appliedClocks("worker-000")).isEqualTo(PythonJobs.clocks(spec));
            }
        }
    }

    /** The Java clients' settings: a plain broker, the registry over HTTPS with basic auth. */
    private static Properties settings(
            final KafkaTestCluster kafka,
            final SchemaRegistryServer registry,
            final SelfSignedCertificates certificates) {
        final Properties settings = new Properties();
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        settings.put(SchemaRegistryConfig.SCHEMA_REGISTRY_URL, registry.url());
        settings.put(
                SchemaRegistryConfig.SSL_TRUSTSTORE_LOCATION,
                certificates.trustStore().toString());
        settings.put(SchemaRegistryConfig.SSL_TRUSTSTORE_PASSWORD, certificates.password());
        settings.put(SchemaRegistryConfig.SSL_TRUSTSTORE_TYPE, SelfSignedCertificates.TYPE);
        settings.put(SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO");
        settings.put(SchemaRegistryConfig.BASIC_AUTH_USER_INFO, USER + ":" + PASSWORD);
        return settings;
    }
}
