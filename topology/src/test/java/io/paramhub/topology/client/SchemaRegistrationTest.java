package io.paramhub.topology.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.schemas.registry.SchemaRegistryClient;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.schemas.serde.AvroSerde;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Tests registering every topic's value schema ahead of a job. */
class SchemaRegistrationTest {

    private static final String SCOPE = "schema-registration-test";

    @AfterEach
    void dropRegistry() {
        SchemaRegistryClients.dropScope(SCOPE);
    }

    @Test
    void shouldRegisterEveryValueSchemaSoThatSerializersThatMayNotRegisterFindThem() {
        // given: serializers that only look schemas up, on an empty registry
        final String url = SchemaRegistryConfig.MOCK_URL_PREFIX + SCOPE;
        final SerdeFactory lookingUp =
                new SerdeFactory(Map.of("schema.registry.url", url, SchemaRegistryConfig.AUTO_REGISTER_SCHEMAS, false));
        final TopicCatalog topics = TopicCatalog.create("test.", lookingUp);
        final WorkerStatus status = WorkerStatus.newBuilder()
                .setJob("job")
                .setWorker("worker-000")
                .setState(WorkerState.JOINED)
                .setClock(0)
                .setTimestamp(Instant.ofEpochMilli(1))
                .build();
        final Topic<String, WorkerStatus> membership = topics.membership();
        assertThatThrownBy(() -> membership.valueSerde().serializer().serialize(membership.name(), status))
                .hasMessageContaining("looking up");

        // when: serdes that may not register leave the registry alone; the deployment's register every schema
        assertThat(SchemaRegistration.registerValueSchemas(topics, lookingUp)).isZero();
        final int registered = SchemaRegistration.registerValueSchemas(topics, SerdeFactory.forRegistry(url));

        // then: one subject a topic, holding the schema its serde writes; the serializer now finds its id
        assertThat(registered).isEqualTo(topics.all().size());
        final SchemaRegistryClient registry = SchemaRegistryClients.mockScope(SCOPE);
        for (final Topic<String, ?> topic : topics.all()) {
            assertThat(registry.latest(topic.name() + "-value").schema())
                    .as(topic.name())
                    .isEqualTo(((AvroSerde<?>) topic.valueSerde()).schema());
        }
        assertThat(membership.valueSerde().serializer().serialize(membership.name(), status))
                .isNotEmpty();
    }
}
