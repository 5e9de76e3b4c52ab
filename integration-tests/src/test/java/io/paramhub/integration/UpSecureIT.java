package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.EmbeddedKafka;
import io.paramhub.embedded.EmbeddedRegistry;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.embedded.secure.AclScope;
import io.paramhub.embedded.secure.LocalSecrets;
import io.paramhub.embedded.secure.Role;
import io.paramhub.embedded.secure.SecureRoles;
import io.paramhub.ml.LinearProblem;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.schemas.registry.SchemaRegistryException;
import io.paramhub.topology.TopicCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code paramhub up --secure} starts: the embedded broker with SASL_SSL and ACLs and the registry with
 * HTTPS and basic auth, from the secrets it keeps, and its roles ({@link SecureRoles}); a run trains with the
 * settings files it writes, each app as its role's user, a worker's settings cannot write {@code model}, and the
 * registry refuses a client without the basic-auth credentials.
 */
@Tag("integration")
class UpSecureIT {

    @Test
    void shouldTrainWithRoleSettingsAndRefuseForbiddenWritesAndRegistryClientsWithoutCredentials(
            @TempDir final Path dir) throws Exception {
        // given
        final LocalSecrets secrets = LocalSecrets.loadOrCreate(dir.resolve("secure"));
        try (EmbeddedKafka kafka = EmbeddedKafka.start(
                        dir.resolve("kafka"),
                        EmbeddedKafka.freePort(),
                        EmbeddedKafka.freePort(),
                        true,
                        secrets.broker());
                SchemaRegistryServer registry = EmbeddedRegistry.start(kafka, secrets, 0)) {
            final Map<Role, Path> files = SecureRoles.setUp(
                    secrets.clientSettings(kafka.bootstrapServers(), registry.url()),
                    secrets,
                    AclScope.defaults(TopicCatalog.DEFAULT_PREFIX, List.of("data.")),
                    dir.resolve("secure"));
            final Map<Role, KafkaConnection> roles = new EnumMap<>(Role.class);
            for (final Map.Entry<Role, Path> file : files.entrySet()) {
                roles.put(file.getKey(), KafkaConnection.of(load(file.getValue())));
            }
            final LinearProblem problem = LinearJobs.problem();
            final JobSpec spec = LinearJobs.job("up-secure-linear", 2, 2, 1);

            // when
            final TrainingRun.Result result = new TrainingRun(
                            roles.get(Role.WORKER), TopicCatalog.DEFAULT_PREFIX, dir.resolve("streams"))
                    .withRoles(roles)
                    .run(spec, problem.data(), RunListener.NONE);

            // then
            assertThat(files).containsOnlyKeys(Role.values());
            assertThat(registry.url()).startsWith("https://");
            assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
            final Properties worker = roles.get(Role.WORKER).client();
            worker.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
            try (KafkaProducer<byte[], byte[]> producer =
                    new KafkaProducer<>(worker, new ByteArraySerializer(), new ByteArraySerializer())) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>(
                                        TopicCatalog.DEFAULT_PREFIX + "model", new byte[1], new byte[1]))
                                .get(10, TimeUnit.SECONDS))
                        .hasRootCauseInstanceOf(TopicAuthorizationException.class);
            }
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

    private static Properties load(final Path file) throws IOException {
        final Properties props = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            props.load(in);
        }
        return props;
    }
}
