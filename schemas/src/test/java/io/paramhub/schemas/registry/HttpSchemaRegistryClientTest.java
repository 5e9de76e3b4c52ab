package io.paramhub.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class HttpSchemaRegistryClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldPostSchemaInConfluentFormatWhenRegistering() throws IOException {
        // given
        try (FakeRegistryServer server =
                FakeRegistryServer.start(r -> new FakeRegistryServer.Answer(200, "{\"id\":7}"))) {
            final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url());

            // when
            final int id = client.register("jobs-value", JobSpec.getClassSchema());

            // then
            assertThat(id).isEqualTo(7);
            final FakeRegistryServer.Request request = server.requests().get(0);
            assertThat(request.method()).isEqualTo("POST");
            assertThat(request.rawPath()).isEqualTo("/subjects/jobs-value/versions");
            assertThat(request.contentType()).isEqualTo("application/vnd.schemaregistry.v1+json");
            assertThat(request.authorization()).isNull();
            final String sent = JSON.readTree(request.body()).get("schema").asText();
            assertThat(new Schema.Parser().parse(sent)).isEqualTo(JobSpec.getClassSchema());
        }
    }

    @Test
    void shouldAskOnceWhenSameSchemaIsUsedAgain() throws IOException {
        // given
        try (FakeRegistryServer server =
                FakeRegistryServer.start(r -> new FakeRegistryServer.Answer(200, "{\"id\":3}"))) {
            final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url());

            // when
            client.register("jobs-value", JobSpec.getClassSchema());
            client.register("jobs-value", JobSpec.getClassSchema());
            final int looked = client.lookupId("jobs-value", JobSpec.getClassSchema());
            final Schema byId = client.schemaById(3);

            // then
            assertThat(looked).isEqualTo(3);
            assertThat(byId).isEqualTo(JobSpec.getClassSchema());
            assertThat(server.requests()).hasSize(1);
        }
    }

    @Test
    void shouldLookUpUnderSubjectWithoutRegistering() throws IOException {
        // given
        final String answer = JSON.writeValueAsString(Map.of(
                "subject",
                "gradients-value",
                "version",
                2,
                "id",
                11,
                "schema",
                GradientShard.getClassSchema().toString()));
        try (FakeRegistryServer server = FakeRegistryServer.start(r -> new FakeRegistryServer.Answer(200, answer))) {
            final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url());

            // when
            final int id = client.lookupId("gradients-value", GradientShard.getClassSchema());

            // then
            assertThat(id).isEqualTo(11);
            assertThat(server.requests())
                    .singleElement()
                    .satisfies(r -> assertThat(r.rawPath()).isEqualTo("/subjects/gradients-value"));
        }
    }

    @Test
    void shouldFetchSchemaByIdOnceWhenAskedTwice() throws IOException {
        // given
        final String answer = JSON.writeValueAsString(
                Map.of("schema", GradientShard.getClassSchema().toString()));
        try (FakeRegistryServer server = FakeRegistryServer.start(r -> new FakeRegistryServer.Answer(200, answer))) {
            final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url());

            // when
            final Schema first = client.schemaById(5);
            final Schema second = client.schemaById(5);

            // then
            assertThat(first).isEqualTo(GradientShard.getClassSchema()).isSameAs(second);
            assertThat(server.requests()).singleElement().satisfies(r -> {
                assertThat(r.method()).isEqualTo("GET");
                assertThat(r.rawPath()).isEqualTo("/schemas/ids/5");
            });
        }
    }

    @Test
    void shouldEncodeSubjectWhenItHasReservedCharacters() throws IOException {
        // given
        try (FakeRegistryServer server =
                FakeRegistryServer.start(r -> new FakeRegistryServer.Answer(200, "{\"id\":1}"))) {
            final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url() + "/");

            // when
            client.register("team a/jobs?x-value", JobSpec.getClassSchema());

            // then
            assertThat(server.requests().get(0).rawPath()).isEqualTo("/subjects/team%20a%2Fjobs%3Fx-value/versions");
        }
    }

    @Test
    void shouldFailOverWhenFirstUrlRefusesConnections() throws IOException {
        // given
        final int deadPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            deadPort = socket.getLocalPort();
        }
        try (FakeRegistryServer server =
                FakeRegistryServer.start(r -> new FakeRegistryServer.Answer(200, "{\"id\":4}"))) {
            final HttpSchemaRegistryClient client =
                    new HttpSchemaRegistryClient("http://127.0.0.1:" + deadPort + ", " + server.url());

            // when
            final int id = client.register("jobs-value", JobSpec.getClassSchema());

            // then
            assertThat(id).isEqualTo(4);
            assertThat(server.requests()).hasSize(1);
        }
    }

    @Test
    void shouldSendBasicCredentialsWhenUserInfoIsConfigured() throws IOException {
        // given
        try (FakeRegistryServer server =
                FakeRegistryServer.start(r -> new FakeRegistryServer.Answer(200, "{\"id\":1}"))) {
            final SchemaRegistryClient client = SchemaRegistryClients.fromConfig(Map.of(
                    SchemaRegistryConfig.SCHEMA_REGISTRY_URL, server.url(),
                    SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO",
                    SchemaRegistryConfig.BASIC_AUTH_USER_INFO, "alice:s3cret"));

            // when
            client.register("jobs-value", JobSpec.getClassSchema());

            // then
            final String expected =
                    "Basic " + Base64.getEncoder().encodeToString("alice:s3cret".getBytes(StandardCharsets.UTF_8));
            assertThat(server.requests().get(0).authorization()).isEqualTo(expected);
        }
    }

    @Test
    void shouldCarryStatusAndErrorCodeWhenRegistryAnswersError() throws IOException {
        // given
        final String error = "{\"error_code\":40401,\"message\":\"Subject 'jobs-value' not found.\"}";
        try (FakeRegistryServer server = FakeRegistryServer.start(r -> new FakeRegistryServer.Answer(404, error))) {
            final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url());

            // when / then
            assertThatThrownBy(() -> client.lookupId("jobs-value", JobSpec.getClassSchema()))
                    .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                        assertThat(e.httpStatus()).isEqualTo(404);
                        assertThat(e.errorCode()).isEqualTo(40401);
                        assertThat(e.getMessage())
                                .contains(server.url() + "/subjects/jobs-value")
                                .contains("subject 'jobs-value'")
                                .contains("not found");
                    });
        }
    }

    @Test
    void shouldNameEveryUrlWhenNoneIsReachable() throws IOException {
        // given
        final int deadPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            deadPort = socket.getLocalPort();
        }
        final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient("http://127.0.0.1:" + deadPort);

        // when / then
        assertThatThrownBy(() -> client.schemaById(1))
                .isInstanceOfSatisfying(
                        SchemaRegistryException.class,
                        e -> assertThat(e.httpStatus()).isEqualTo(SchemaRegistryException.NO_RESPONSE))
                .hasMessageContaining("127.0.0.1:" + deadPort)
                .hasMessageContaining("schema id 1");
    }
}
