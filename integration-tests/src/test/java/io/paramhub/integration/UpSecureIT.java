package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.EmbeddedKafka;
import io.paramhub.embedded.EmbeddedRegistry;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.embedded.secure.LocalSecrets;
import io.paramhub.ml.LinearProblem;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.schemas.registry.SchemaRegistryException;
import io.paramhub.topology.TopicCatalog;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code paramhub up --secure} starts: the embedded broker with SASL_SSL and ACLs and the registry with
 * HTTPS and basic auth, from the secrets it keeps; a run trains with the client settings it prints, and the
 * registry refuses a client without the basic-auth credentials.
 */
@Tag("integration")
class UpSecureIT {

    @Test
    void shouldTrainWithPrintedSettingsAndRefuseRegistryClientsWithoutCredentials(@TempDir final Path dir)
            throws InterruptedException {
        // given
        final LocalSecrets secrets = LocalSecrets.loadOrCreate(dir.resolve("secure"));
        try (EmbeddedKafka kafka = EmbeddedKafka.start(
                        dir.resolve("kafka"),
                        EmbeddedKafka.freePort(),
                        EmbeddedKafka.freePort(),
                        true,
                        secrets.broker());
                SchemaRegistryServer registry = EmbeddedRegistry.start(kafka, secrets, 0)) {
            final Properties settings = secrets.clientSettings(kafka.bootstrapServers(), registry.url());
            final LinearProblem problem = LinearJobs.problem();
            final JobSpec spec = LinearJobs.job("up-secure-linear", 2, 2, 1);

            // when
            final TrainingRun.Result result = new TrainingRun(
                            KafkaConnection.of(settings), TopicCatalog.DEFAULT_PREFIX, dir.resolve("streams"))
                    .run(spec, problem.data(), RunListener.NONE);

            // then
            assertThat(registry.url()).startsWith("https://");
            assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
            final Map<String, Object> noCredentials = new HashMap<>();
            noCredentials.put(SchemaRegistryConfig.SCHEMA_REGISTRY_URL, registry.url());
            noCredentials.put(
                    SchemaRegistryConfig.SSL_TRUSTSTORE_LOCATION,
                    secrets.certificates().trustStore().toString());
            noCredentials.put(
                    SchemaRegistryConfig.SSL_TRUSTSTORE_PASSWORD,
                    secrets.certificates().password());
            assertThatThrownBy(() ->
                            SchemaRegistryClients.fromConfig(noCredentials).schemaById(1))
                    .isInstanceOfSatisfying(
                            SchemaRegistryException.class,
                            e -> assertThat(e.httpStatus()).isEqualTo(401));
        }
    }
}
