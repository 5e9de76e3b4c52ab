package io.paramhub.integration.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.schemas.registry.HttpSchemaRegistryClient;
import io.paramhub.schemas.registry.SchemaRegistryConfig;
import io.paramhub.schemas.serde.AvroSerde;
import io.paramhub.schemas.serde.AvroSerdes;
import io.paramhub.schemas.serde.SampleRecords;
import io.paramhub.schemas.serde.WireFormat;
import io.paramhub.testing.KafkaTestCluster;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Tag("integration")
class SchemaRegistryServerIT {

    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static KafkaTestCluster kafka;
    private static SchemaRegistryServer server;
    private static Vertx vertx;
    private static WebClient http;

    @BeforeAll
    static void startClusterAndRegistry() {
        kafka = KafkaTestCluster.start();
        server = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", 0);
        vertx = Vertx.vertx();
        http = WebClient.create(vertx);
    }

    @AfterAll
    static void stopAll() {
        http.close();
        vertx.close().await();
        server.close();
        kafka.close();
    }

    static Stream<SpecificRecord> everyRecordType() {
        return SampleRecords.all().stream();
    }

    @Test
    void shouldRegisterListAndFetchWhenSchemasAreNew() {
        // given
        final String subject = "it-register-value";
        final String v1 = probe("Register");
        final String v2 = probe("Register", field("b", "\"int\"", "0"));

        // when
        final HttpResponse<Buffer> first = call(HttpMethod.POST, "/subjects/" + subject + "/versions", schemaBody(v1));
        final HttpResponse<Buffer> second = call(HttpMethod.POST, "/subjects/" + subject + "/versions", schemaBody(v2));

        // then
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.getHeader("Content-Type")).isEqualTo(CONTENT_TYPE);
        final int id1 = first.bodyAsJsonObject().getInteger("id");
        final int id2 = second.bodyAsJsonObject().getInteger("id");
        assertThat(id2).isGreaterThan(id1);
        final JsonObject lookedUp =
                call(HttpMethod.POST, "/subjects/" + subject, schemaBody(v1)).bodyAsJsonObject();
        assertThat(lookedUp.getString("subject")).isEqualTo(subject);
        assertThat(lookedUp.getInteger("id")).isEqualTo(id1);
        assertThat(lookedUp.getInteger("version")).isEqualTo(1);
        assertThat(parse(lookedUp.getString("schema"))).isEqualTo(parse(v1));
        assertThat(parse(get("/schemas/ids/" + id2).bodyAsJsonObject().getString("schema")))
                .isEqualTo(parse(v2));
        assertThat(get("/subjects").bodyAsJsonArray()).contains(subject);
        assertThat(get("/subjects/" + subject + "/versions").bodyAsJsonArray()).containsExactly(1, 2);
        final JsonObject latest =
                get("/subjects/" + subject + "/versions/latest").bodyAsJsonObject();
        assertThat(latest.getInteger("version")).isEqualTo(2);
        assertThat(latest.getInteger("id")).isEqualTo(id2);
        assertThat(get("/subjects/" + subject + "/versions/1")
                        .bodyAsJsonObject()
                        .getInteger("id"))
                .isEqualTo(id1);
    }

    @Test
    void shouldKeepIdAndVersionWhenSameSchemaIsRegisteredAgain() {
        // given
        final String schema = probe("Again");
        final int id = register("it-again-value", schema);

        // when
        final int again = register("it-again-value", schema);
        final int elsewhere = register("it-again-copy-value", schema);

        // then
        assertThat(again).isEqualTo(id);
        assertThat(elsewhere).isEqualTo(id);
        assertThat(get("/subjects/it-again-value/versions").bodyAsJsonArray()).containsExactly(1);
    }

    @Test
    void shouldKeepIdsAndVersionsWhenServerRestarts() {
        // given
        final String subject = "it-restart-value";
        final String before = probe("Restart");
        final int oldId = register(subject, before);
        final int maxIdBefore = maxKnownId();

        // when
        server.close();
        server = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", 0);
        final int newId = register(subject, probe("Restart", field("b", "\"string\"", "\"\"")));

        // then
        assertThat(parse(get("/schemas/ids/" + oldId).bodyAsJsonObject().getString("schema")))
                .isEqualTo(parse(before));
        assertThat(register(subject, before)).isEqualTo(oldId);
        assertThat(newId).isEqualTo(maxIdBefore + 1);
        assertThat(get("/subjects/" + subject + "/versions").bodyAsJsonArray()).containsExactly(1, 2);
    }

    @Test
    void shouldRefuseIncompatibleSchemaUntilLevelIsNone() {
        // given
        final String subject = "it-incompatible-value";
        register(subject, probe("Incompatible"));
        final JsonObject newRequiredField = schemaBody(probe("Incompatible", field("c", "\"long\"", null)));

        // when
        final HttpResponse<Buffer> refused =
                call(HttpMethod.POST, "/subjects/" + subject + "/versions", newRequiredField);
        final HttpResponse<Buffer> configured =
                call(HttpMethod.PUT, "/config/" + subject, new JsonObject().put("compatibility", "NONE"));
        final HttpResponse<Buffer> accepted =
                call(HttpMethod.POST, "/subjects/" + subject + "/versions", newRequiredField);

        // then
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(refused.bodyAsJsonObject().getInteger("error_code")).isEqualTo(409);
        assertThat(refused.bodyAsJsonObject().getString("message"))
                .contains("incompatible")
                .contains(subject);
        assertThat(configured.bodyAsJsonObject()).isEqualTo(new JsonObject().put("compatibility", "NONE"));
        assertThat(get("/config/" + subject).bodyAsJsonObject().getString("compatibilityLevel"))
                .isEqualTo("NONE");
        assertThat(accepted.statusCode()).isEqualTo(200);
        assertThat(get("/subjects/" + subject + "/versions").bodyAsJsonArray()).containsExactly(1, 2);
    }

    @Test
    void shouldAnswerCompatibilityWhenAskedAboutVersions() {
        // given
        final String subject = "it-compatibility-value";
        register(subject, probe("Compat"));
        final JsonObject compatible = schemaBody(probe("Compat", field("b", "\"int\"", "1")));
        final JsonObject incompatible = schemaBody(probe("Compat", field("c", "\"long\"", null)));

        // when
        final JsonObject yes = call(
                        HttpMethod.POST, "/compatibility/subjects/" + subject + "/versions/latest", compatible)
                .bodyAsJsonObject();
        final JsonObject no = call(
                        HttpMethod.POST,
                        "/compatibility/subjects/" + subject + "/versions/1?verbose=true",
                        incompatible)
                .bodyAsJsonObject();

        // then
        assertThat(yes).isEqualTo(new JsonObject().put("is_compatible", true));
        assertThat(no.getBoolean("is_compatible")).isFalse();
        assertThat(no.getJsonArray("messages")).isNotEmpty();
        assertThat(get("/subjects/" + subject + "/versions").bodyAsJsonArray()).containsExactly(1);
    }

    @Test
    void shouldFallBackToGlobalLevelOnlyWhenAskedTo() {
        // given
        final String subject = "it-config-value";

        // when
        final HttpResponse<Buffer> own = get("/config/" + subject);
        final HttpResponse<Buffer> fallback = get("/config/" + subject + "?defaultToGlobal=true");
        final HttpResponse<Buffer> global = get("/config");

        // then
        assertError(own, 404, 40408);
        assertThat(fallback.bodyAsJsonObject().getString("compatibilityLevel")).isEqualTo("BACKWARD");
        assertThat(global.bodyAsJsonObject().getString("compatibilityLevel")).isEqualTo("BACKWARD");
    }

    @Test
    void shouldChangeGlobalLevelWhenPutToConfig() {
        // given
        final JsonObject full = new JsonObject().put("compatibility", "full");

        // when
        final HttpResponse<Buffer> put = call(HttpMethod.PUT, "/config", full);
        final String level = get("/config").bodyAsJsonObject().getString("compatibilityLevel");
        final String fallback = get("/config/it-global-value?defaultToGlobal=true")
                .bodyAsJsonObject()
                .getString("compatibilityLevel");
        call(HttpMethod.PUT, "/config", new JsonObject().put("compatibility", "BACKWARD"));

        // then
        assertThat(put.bodyAsJsonObject()).isEqualTo(new JsonObject().put("compatibility", "FULL"));
        assertThat(level).isEqualTo("FULL");
        assertThat(fallback).isEqualTo("FULL");
        assertThat(get("/config").bodyAsJsonObject().getString("compatibilityLevel"))
                .isEqualTo("BACKWARD");
    }

    @Test
    void shouldAnswerConfluentErrorsWhenRequestsAreWrong() {
        // given
        final String subject = "it-errors-value";
        register(subject, probe("Errors"));

        // when / then
        assertError(get("/subjects/it-missing-value/versions"), 404, 40401);
        assertError(call(HttpMethod.POST, "/subjects/it-missing-value", schemaBody(probe("Errors"))), 404, 40401);
        assertError(get("/subjects/" + subject + "/versions/99"), 404, 40402);
        assertError(call(HttpMethod.POST, "/subjects/" + subject, schemaBody(probe("Other"))), 404, 40403);
        assertError(get("/schemas/ids/987654"), 404, 40403);
        assertError(
                call(
                        HttpMethod.POST,
                        "/subjects/" + subject + "/versions",
                        schemaBody("{\"type\": \"record\", \"name\": \"Broken\", \"fields\": [{\"name\": \"x\"}]}")),
                422,
                42201);
        assertError(
                call(
                        HttpMethod.POST,
                        "/subjects/" + subject + "/versions",
                        schemaBody("syntax = \"proto3\";").put("schemaType", "PROTOBUF")),
                422,
                42201);
        assertError(get("/subjects/" + subject + "/versions/first"), 422, 42202);
        assertError(
                call(HttpMethod.PUT, "/config/" + subject, new JsonObject().put("compatibility", "SOMETIMES")),
                422,
                42203);
        assertError(
                send(
                        http.requestAbs(HttpMethod.POST, server.url() + "/subjects/" + subject + "/versions")
                                .putHeader("Content-Type", "text/plain"),
                        schemaBody(probe("Errors"))),
                415,
                415);
        assertError(rawPost("/subjects/" + subject + "/versions", "{not json"), 400, 400);
        assertThat(get("/subjects/" + subject + "/versions").bodyAsJsonArray()).containsExactly(1);
    }

    @Test
    void shouldHandleSubjectWithReservedCharactersWhenUsingTheClient() {
        // given
        final HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(server.url());
        final Schema schema = parse(probe("Reserved"));
        final String subject = "team a/jobs-value";

        // when
        final int id = client.register(subject, schema);

        // then
        assertThat(new HttpSchemaRegistryClient(server.url()).lookupId(subject, schema))
                .isEqualTo(id);
        assertThat(get("/subjects").bodyAsJsonArray()).contains(subject);
        assertThat(get("/subjects/"
                                + URLEncoder.encode(subject, StandardCharsets.UTF_8)
                                        .replace("+", "%20") + "/versions")
                        .bodyAsJsonArray())
                .containsExactly(1);
    }

    @ParameterizedTest
    @MethodSource("everyRecordType")
    void shouldRoundTripThroughTopicWhenRecordIsAnyGeneratedType(final SpecificRecord record) {
        // given
        final String topic = "it-" + record.getSchema().getName().toLowerCase(Locale.ROOT);
        kafka.createTopic(topic, 1);
        final AvroSerde<SpecificRecord> serde = serdeOf(record);

        // when
        produce(topic, serde, record);
        final ConsumerRecord<String, SpecificRecord> read = consumeOne(topic, serde);

        // then
        assertThat(read.value()).isEqualTo(record);
        final int id = WireFormat.schemaId(topic, serde.serializer().serialize(topic, record));
        assertThat(parse(get("/schemas/ids/" + id).bodyAsJsonObject().getString("schema")))
                .isEqualTo(record.getSchema());
        assertThat(get("/subjects").bodyAsJsonArray()).contains(topic + "-value");
    }

    @SuppressWarnings("unchecked")
    private static AvroSerde<SpecificRecord> serdeOf(final SpecificRecord record) {
        return AvroSerdes.of(
                (Class<SpecificRecord>) record.getClass(),
                Map.of(SchemaRegistryConfig.SCHEMA_REGISTRY_URL, server.url()),
                false);
    }

    private static void produce(
            final String topic, final AvroSerde<SpecificRecord> serde, final SpecificRecord record) {
        try (KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                new StringSerializer(),
                serde.serializer())) {
            producer.send(new ProducerRecord<>(topic, "key", record)).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (final Exception e) {
            throw new IllegalStateException("cannot produce to " + topic, e);
        }
    }

    private static ConsumerRecord<String, SpecificRecord> consumeOne(
            final String topic, final AvroSerde<SpecificRecord> serde) {
        final TopicPartition partition = new TopicPartition(topic, 0);
        final List<ConsumerRecord<String, SpecificRecord>> records = new ArrayList<>();
        try (KafkaConsumer<String, SpecificRecord> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                serde.deserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            await().alias("a record on " + topic).atMost(TIMEOUT).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(records::add);
                return !records.isEmpty();
            });
        }
        return records.get(0);
    }

    private static int register(final String subject, final String schema) {
        final HttpResponse<Buffer> response =
                call(HttpMethod.POST, "/subjects/" + subject + "/versions", schemaBody(schema));
        assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
        return response.bodyAsJsonObject().getInteger("id");
    }

    private static int maxKnownId() {
        int max = 0;
        for (final Object subject : get("/subjects").bodyAsJsonArray()) {
            final String path = "/subjects/"
                    + URLEncoder.encode((String) subject, StandardCharsets.UTF_8)
                            .replace("+", "%20") + "/versions/";
            for (final Object version :
                    get(path.substring(0, path.length() - 1)).bodyAsJsonArray()) {
                max = Math.max(max, get(path + version).bodyAsJsonObject().getInteger("id"));
            }
        }
        return max;
    }

    private static void assertError(final HttpResponse<Buffer> response, final int status, final int errorCode) {
        assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(status);
        assertThat(response.getHeader("Content-Type")).isEqualTo(CONTENT_TYPE);
        assertThat(response.bodyAsJsonObject().getInteger("error_code")).isEqualTo(errorCode);
        assertThat(response.bodyAsJsonObject().getString("message")).isNotBlank();
    }

    private static HttpResponse<Buffer> get(final String path) {
        return send(http.requestAbs(HttpMethod.GET, server.url() + path), null);
    }

    private static HttpResponse<Buffer> call(final HttpMethod method, final String path, final JsonObject body) {
        return send(http.requestAbs(method, server.url() + path).putHeader("Content-Type", CONTENT_TYPE), body);
    }

    private static HttpResponse<Buffer> rawPost(final String path, final String body) {
        return sendRaw(
                http.requestAbs(HttpMethod.POST, server.url() + path).putHeader("Content-Type", CONTENT_TYPE),
                Buffer.buffer(body));
    }

    private static HttpResponse<Buffer> send(final HttpRequest<Buffer> request, final JsonObject body) {
        return sendRaw(request, body == null ? null : body.toBuffer());
    }

    private static HttpResponse<Buffer> sendRaw(final HttpRequest<Buffer> request, final Buffer body) {
        try {
            return (body == null ? request.send() : request.sendBuffer(body))
                    .await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (final TimeoutException e) {
            throw new IllegalStateException("no answer from the schema registry", e);
        }
    }

    private static JsonObject schemaBody(final String schema) {
        return new JsonObject().put("schema", schema);
    }

    private static Schema parse(final String schema) {
        return new Schema.Parser().parse(schema);
    }

    /** A record schema {@code io.paramhub.it.<name>} with a string field {@code a} and {@code extraFields}. */
    private static String probe(final String name, final String... extraFields) {
        final JsonArray fields =
                new JsonArray().add(new JsonObject().put("name", "a").put("type", "string"));
        Stream.of(extraFields).map(JsonObject::new).forEach(fields::add);
        return new JsonObject()
                .put("type", "record")
                .put("name", name)
                .put("namespace", "io.paramhub.it")
                .put("fields", fields)
                .encode();
    }

    private static String field(final String name, final String type, final String defaultValue) {
        return "{\"name\": \"" + name + "\", \"type\": " + type
                + (defaultValue == null ? "" : ", \"default\": " + defaultValue) + "}";
    }
}
