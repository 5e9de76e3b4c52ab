package io.paramhub.integration.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.registry.RegistryAccess;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.testing.KafkaTestCluster;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two registry instances on one schema topic, as two replicas behind a load balancer: schemas registered
 * through both at once, each schema through each instance, under a subject of its own and under one subject
 * they share. No id and no subject version may name two schemas, in the answers or in the topic, and each
 * instance serves every schema either registered.
 */
@Tag("integration")
class RegistryTwoInstancesIT {

    private static final String TOPIC = "_two_instances_schemas";
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final String SHARED = "two-instances-shared-value";
    private static final int SCHEMAS = 12;
    private static final int THREADS_PER_INSTANCE = 2;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private static KafkaTestCluster kafka;
    private static SchemaRegistryServer first;
    private static SchemaRegistryServer second;

    @BeforeAll
    static void startClusterAndTwoRegistries() {
        kafka = KafkaTestCluster.start();
        final Map<String, Object> clients = Map.of("bootstrap.servers", kafka.bootstrapServers());
        first = SchemaRegistryServer.start(clients, TOPIC, "127.0.0.1", 0, RegistryAccess.open());
        second = SchemaRegistryServer.start(clients, TOPIC, "127.0.0.1", 0, RegistryAccess.open());
    }

    @AfterAll
    static void stopAll() {
        second.close();
        first.close();
        kafka.close();
    }

    @Test
    void shouldGiveEachSchemaOneIdWhenTwoInstancesRegisterAtOnce() throws Exception {
        // given: a subject both instances add versions to, whatever their schemas
        assertThat(call(first.url(), "PUT", "/config/" + SHARED, "{\"compatibility\":\"NONE\"}")
                        .statusCode())
                .isEqualTo(200);
        final List<String> schemas = new ArrayList<>();
        for (int i = 0; i < SCHEMAS; i++) {
            schemas.add(probe("TwoInstances" + i));
        }

        // when: each schema registered through both instances at once, under its subject and the shared one
        final Map<String, Map<String, Integer>> idsByUrl = new ConcurrentHashMap<>();
        final CountDownLatch go = new CountDownLatch(1);
        final ExecutorService threads = Executors.newFixedThreadPool(2 * THREADS_PER_INSTANCE);
        final List<Future<?>> done = new ArrayList<>();
        for (final SchemaRegistryServer instance : List.of(first, second)) {
            final boolean reversed = instance == second;
            for (int t = 0; t < THREADS_PER_INSTANCE; t++) {
                final int thread = t;
                done.add(threads.submit(() -> {
                    go.await();
                    for (int n = 0; n < SCHEMAS; n++) {
                        final int i = reversed ? SCHEMAS - 1 - n : n;
                        if (i % THREADS_PER_INSTANCE != thread) {
                            continue;
                        }
                        final String schema = schemas.get(i);
                        final int own = register(instance.url(), "two-instances-" + i + "-value", schema);
                        final int shared = register(instance.url(), SHARED, schema);
                        assertThat(shared)
                                .as("id of schema %d under two subjects", i)
                                .isEqualTo(own);
                        idsByUrl.computeIfAbsent(instance.url(), url -> new ConcurrentHashMap<>())
                                .put(schema, own);
                    }
                    return null;
                }));
            }
        }
        go.countDown();
        for (final Future<?> thread : done) {
            thread.get(2, TimeUnit.MINUTES);
        }
        threads.shutdown();

        // then: both instances gave each schema the same id, and no id went to two schemas
        final Map<String, Integer> ids = idsByUrl.get(first.url());
        assertThat(idsByUrl.get(second.url())).isEqualTo(ids);
        assertThat(Set.copyOf(ids.values())).hasSize(SCHEMAS);
        // and: each instance serves every schema by its id, every subject and every version of the shared one
        for (final SchemaRegistryServer instance : List.of(first, second)) {
            ids.forEach((schema, id) -> assertThat(
                            parse(get(instance.url(), "/schemas/ids/" + id).getString("schema")))
                    .as("schema %d from %s", id, instance.url())
                    .isEqualTo(parse(schema)));
            final JsonArray versions =
                    new JsonArray(call(instance.url(), "GET", "/subjects/" + SHARED + "/versions", null)
                            .body());
            assertThat(versions).hasSize(SCHEMAS);
            final Set<Integer> sharedIds = new HashSet<>();
            for (int version = 1; version <= SCHEMAS; version++) {
                sharedIds.add(get(instance.url(), "/subjects/" + SHARED + "/versions/" + version)
                        .getInteger("id"));
            }
            assertThat(sharedIds).isEqualTo(Set.copyOf(ids.values()));
        }
        // and: in the topic, as a registry reads it, each id and each subject version names one schema
        final Map<Integer, Set<Schema>> schemasById = new HashMap<>();
        final Map<String, Set<Schema>> schemasByVersion = new HashMap<>();
        for (final ConsumerRecord<String, String> record : readTopic()) {
            final JsonObject key = new JsonObject(record.key());
            if (!"SCHEMA".equals(key.getString("keytype")) || record.value() == null) {
                continue;
            }
            final JsonObject value = new JsonObject(record.value());
            final Schema schema = parse(value.getString("schema"));
            schemasById
                    .computeIfAbsent(value.getInteger("id"), id -> new HashSet<>())
                    .add(schema);
            schemasByVersion
                    .computeIfAbsent(key.getString("subject") + "/" + key.getInteger("version"), v -> new HashSet<>())
                    .add(schema);
        }
        assertThat(schemasById)
                .hasSize(SCHEMAS)
                .allSatisfy((id, named) -> assertThat(named).hasSize(1));
        assertThat(schemasByVersion)
                .hasSize(2 * SCHEMAS)
                .allSatisfy((version, named) -> assertThat(named).hasSize(1));
    }

    private static int register(final String url, final String subject, final String schema) throws Exception {
        final HttpResponse<String> response = call(
                url,
                "POST",
                "/subjects/" + subject + "/versions",
                new JsonObject().put("schema", schema).encode());
        assertThat(response.statusCode())
                .as("register under %s at %s: %s", subject, url, response.body())
                .isEqualTo(200);
        return new JsonObject(response.body()).getInteger("id");
    }

    private static JsonObject get(final String url, final String path) {
        final HttpResponse<String> response = call(url, "GET", path, null);
        assertThat(response.statusCode())
                .as("GET %s%s: %s", url, path, response.body())
                .isEqualTo(200);
        return new JsonObject(response.body());
    }

    private static HttpResponse<String> call(
            final String url, final String method, final String path, final String body) {
        final HttpRequest request = HttpRequest.newBuilder(URI.create(url + path))
                .timeout(TIMEOUT)
                .header("Content-Type", CONTENT_TYPE)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Every record of the topic, read committed as a registry reads it. */
    private static List<ConsumerRecord<String, String>> readTopic() {
        final Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed");
        final TopicPartition partition = new TopicPartition(TOPIC, 0);
        final List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            final long end = consumer.endOffsets(List.of(partition), TIMEOUT).get(partition);
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            assertThat(consumer.position(partition))
                    .as("read to the end of %s", TOPIC)
                    .isGreaterThanOrEqualTo(end);
        }
        return records;
    }

    private static String probe(final String name) {
        return new JsonObject()
                .put("type", "record")
                .put("name", name)
                .put("namespace", "io.paramhub.it")
                .put(
                        "fields",
                        new JsonArray().add(new JsonObject().put("name", "a").put("type", "string")))
                .encode();
    }

    private static Schema parse(final String schema) {
        return new Schema.Parser().parse(schema);
    }
}
