package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.aggregator.http.ModelQueryServer;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.GradientSum;
import io.paramhub.ml.LinearRegression;
import io.paramhub.ml.Optimizer;
import io.paramhub.ml.ShardLayout;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.testing.KafkaTestCluster;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.aggregator.AggregatorTopology;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.jobs.JobSpecs;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /jobs/{job}/model} against two aggregator instances of one application on a real
 * in-process KRaft broker: each instance serves its own shards from its stores and fetches the
 * others' from the other instance, found through {@code application.server}.
 */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ModelQueryIT {

    private static final String APPLICATION_ID = "model-query-it";
    private static final String HOST = "127.0.0.1";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int SHARDS = 4;
    private static final List<String> WORKERS = List.of("worker-000", "worker-001", "worker-002");

    @TempDir
    static Path stateRoot;

    private static KafkaTestCluster kafka;
    private static SchemaRegistryServer registry;
    private static TopicCatalog topics;
    private static final List<Instance> instances = new ArrayList<>();
    private static Vertx vertx;
    private static WebClient http;

    /** One aggregator instance: its Kafka Streams and its model query server. */
    private record Instance(AggregatorRunner runner, ModelQueryServer server) {

        KafkaStreams streams() {
            return runner.streams();
        }

        String address() {
            return HOST + ":" + server.port();
        }
    }

    @BeforeAll
    static void startClusterAndTwoAggregators() throws IOException {
        kafka = KafkaTestCluster.start();
        registry = SchemaRegistryServer.start(kafka.bootstrapServers(), HOST, 0);
        topics = TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
        for (final int port : freePorts(2)) {
            final Properties props = new Properties();
            props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registry.url());
            props.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
            props.put(
                    StreamsConfig.STATE_DIR_CONFIG,
                    stateRoot.resolve("aggregator-" + port).toString());
            props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, HOST + ":" + port);
            final AggregatorRunner runner =
                    AggregatorRunner.start(props, TopicCatalog.DEFAULT_PREFIX, TopicSetup.defaults());
            instances.add(new Instance(runner, ModelQueryServer.start(runner.streams(), runner.lineage(), HOST, port)));
        }
        vertx = Vertx.vertx();
        http = WebClient.create(vertx);
        await().alias("both aggregators RUNNING with tasks")
                .atMost(TIMEOUT)
                .until(() -> instances.stream()
                        .allMatch(instance -> instance.streams().state() == KafkaStreams.State.RUNNING
                                && instance.streams().metadataForLocalThreads().stream()
                                        .anyMatch(
                                                thread -> !thread.activeTasks().isEmpty())));
    }

    @AfterAll
    static void stopAll() {
        if (http != null) {
            http.close();
            vertx.close().await();
        }
        instances.forEach(ModelQueryIT::stop);
        if (registry != null) {
            registry.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void shouldServeEveryShardAtVersion0FromEitherInstanceWhenTheShardsLiveOnBoth() {
        // given
        final JobSpec spec = LinearJobs.job("model-query-v0", WORKERS.size(), SHARDS, 1);

        // when
        JobSubmitter.submit(topics.jobs(), clientProperties(), spec);

        // then
        final List<JsonObject> models = instances.stream()
                .map(instance -> completeModel(instance, spec, 0))
                .toList();
        final float[] initial = new LinearRegression(16).initialParameters(spec.getSeed());
        for (final JsonObject model : models) {
            assertThat(model.getString("job")).isEqualTo(spec.getJob());
            assertThat(model.getInteger("parameterCount")).isEqualTo(17);
            assertThat(model.getInteger("shardCount")).isEqualTo(SHARDS);
            assertThat(model.getLong("maxVersion")).isZero();
            assertThat(model.getLong("minClock")).isZero();
            assertThat(assemble(model)).containsExactly(initial);
        }
        assertThat(withoutServedBy(models.get(0))).isEqualTo(withoutServedBy(models.get(1)));
        assertShardsLiveOnBothInstances(spec.getJob());
        for (int i = 0; i < instances.size(); i++) {
            final Instance other = instances.get(1 - i);
            assertThat(servedBy(models.get(i)))
                    .as("who served the shards of instance %d's answer", i)
                    .contains("local", other.address());
        }
    }

    @Test
    void shouldServeVersion1FromEitherInstanceWhenEveryWorkerSentClock0() {
        // given
        final JobSpec spec = LinearJobs.job("model-query-v1", WORKERS.size(), SHARDS, 1);
        JobSubmitter.submit(topics.jobs(), clientProperties(), spec);
        completeModel(instances.get(0), spec, 0);

        // when
        sendClock0Gradients(spec);

        // then
        final float[] expected = expectedVersion1(spec);
        for (final Instance instance : instances) {
            final JsonObject model = completeModel(instance, spec, 1);
            assertThat(model.getLong("maxVersion")).isEqualTo(1);
            assertThat(model.getLong("minClock")).isEqualTo(1);
            assertThat(assemble(model)).containsExactly(expected);
        }
    }

    @Test
    void shouldAnswer404WhenNoInstanceKnowsTheJob() {
        for (final Instance instance : instances) {
            // when
            final HttpResponse<Buffer> response = await().alias("an answer other than 503")
                    .atMost(TIMEOUT)
                    .until(() -> get(instance, "/jobs/no-such-job/model"), answer -> answer.statusCode() != 503);

            // then
            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(response.bodyAsJsonObject().getString("error")).contains("no-such-job");
        }
    }

    /** Runs last: it stops the second instance, which leaves the group at once rather than after its session timeout. */
    @Test
    @Order(Integer.MAX_VALUE)
    void shouldServeEveryShardLocallyWhenTheOtherInstanceLeaves() {
        // given
        final JobSpec spec = LinearJobs.job("model-query-failover", WORKERS.size(), SHARDS, 1);
        JobSubmitter.submit(topics.jobs(), clientProperties(), spec);
        final Instance survivor = instances.get(0);
        assertThat(servedBy(completeModel(survivor, spec, 0)))
                .contains(instances.get(1).address());

        // when
        final Instance leaving = instances.remove(1);
        leaving.streams()
                .close(CloseOptions.groupMembershipOperation(GroupMembershipOperation.LEAVE_GROUP)
                        .withTimeout(TIMEOUT));
        stop(leaving);

        // then
        final HttpResponse<Buffer> response = await().alias(
                        "every shard of " + spec.getJob() + " from " + survivor.address() + "'s own stores")
                .atMost(TIMEOUT)
                .until(
                        () -> get(survivor, "/jobs/" + spec.getJob() + "/model"),
                        answer -> answer.statusCode() == 200
                                && answer.bodyAsJsonObject().getBoolean("complete")
                                && servedBy(answer.bodyAsJsonObject()).stream().allMatch("local"::equals));
        assertThat(assemble(response.bodyAsJsonObject()))
                .containsExactly(new LinearRegression(16).initialParameters(spec.getSeed()));
        assertThat(survivor.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
    }

    /** Waits until {@code instance} answers every shard of the job at {@code version}; returns that answer. */
    private static JsonObject completeModel(final Instance instance, final JobSpec spec, final long version) {
        final HttpResponse<Buffer> response = await().alias(
                        "every shard of " + spec.getJob() + " at version " + version + " from " + instance.address())
                .atMost(TIMEOUT)
                .until(
                        () -> get(instance, "/jobs/" + spec.getJob() + "/model"),
                        answer -> answer.statusCode() == 200
                                && answer.bodyAsJsonObject().getBoolean("complete")
                                && answer.bodyAsJsonObject().getLong("minVersion") == version);
        return response.bodyAsJsonObject();
    }

    private static void stop(final Instance instance) {
        instance.server().close();
        instance.runner().close();
    }

    private static HttpResponse<Buffer> get(final Instance instance, final String path) throws TimeoutException {
        return http.get(instance.server().port(), HOST, path).send().await(10, TimeUnit.SECONDS);
    }

    /**
     * With 8 partitions and two instances, the four shard keys of a job should not all hash to one
     * instance's partitions; if they did, no shard would be served remotely and this test would say so.
     */
    private static void assertShardsLiveOnBothInstances(final String job) {
        final Set<String> hosts = new TreeSet<>();
        for (int shard = 0; shard < SHARDS; shard++) {
            final HostInfo host = instances
                    .get(0)
                    .streams()
                    .queryMetadataForKey(
                            AggregatorTopology.SHARD_JOB_STORE, ShardKeys.shard(job, shard), new StringSerializer())
                    .activeHost();
            hosts.add(host.host() + ":" + host.port());
        }
        assertThat(hosts)
                .as("active hosts of the shards of %s", job)
                .containsExactlyInAnyOrder(
                        instances.get(0).address(), instances.get(1).address());
    }

    private static void sendClock0Gradients(final JobSpec spec) {
        final ShardLayout layout = JobSpecs.layout(spec);
        try (KafkaProducer<String, GradientShard> producer = new KafkaProducer<>(
                ClientProperties.producer(clientProperties()),
                new StringSerializer(),
                topics.gradients().valueSerde().serializer())) {
            for (int shard = 0; shard < SHARDS; shard++) {
                for (int w = 0; w < WORKERS.size(); w++) {
                    final GradientShard gradient = GradientShard.newBuilder()
                            .setJob(spec.getJob())
                            .setShard(shard)
                            .setWorker(WORKERS.get(w))
                            .setClock(0)
                            .setBaseVersion(0)
                            .setSampleCount(sampleCount(w))
                            .setLoss(1.0)
                            .setValues(FloatPacking.pack(gradient(shard, w, layout.length(shard))))
                            .build();
                    producer.send(new ProducerRecord<>(
                            topics.gradients().name(), ShardKeys.shard(spec.getJob(), shard), gradient));
                }
            }
            producer.flush();
        }
    }

    /** The model after clock 0, computed as the aggregator does: gradients summed in worker order, one optimizer step. */
    private static float[] expectedVersion1(final JobSpec spec) {
        final ShardLayout layout = JobSpecs.layout(spec);
        final Optimizer optimizer = JobSpecs.optimizer(spec);
        final float[] params = new LinearRegression(16).initialParameters(spec.getSeed());
        for (int shard = 0; shard < SHARDS; shard++) {
            final GradientSum sum = new GradientSum(layout.length(shard));
            for (int w = 0; w < WORKERS.size(); w++) {
                sum.add(gradient(shard, w, layout.length(shard)), sampleCount(w));
            }
            final float[] slice = layout.slice(params, shard);
            optimizer.step(slice, sum.mean(), new float[optimizer.stateSlots()][slice.length], 1);
            layout.place(params, shard, slice);
        }
        return params;
    }

    private static float[] gradient(final int shard, final int worker, final int length) {
        final float[] values = new float[length];
        for (int i = 0; i < length; i++) {
            values[i] = 0.5f * (worker + 1) + 0.25f * i - 0.125f * shard;
        }
        return values;
    }

    private static int sampleCount(final int worker) {
        return 40 + worker;
    }

    private static float[] assemble(final JsonObject model) {
        final float[] full = new float[model.getInteger("parameterCount")];
        model.getJsonArray("shards").forEach(entry -> {
            final JsonObject shard = (JsonObject) entry;
            final int first = shard.getInteger("firstParameter");
            final List<?> values = shard.getJsonArray("values").getList();
            for (int i = 0; i < values.size(); i++) {
                full[first + i] = ((Number) values.get(i)).floatValue();
            }
        });
        return full;
    }

    private static List<String> servedBy(final JsonObject model) {
        final List<String> servedBy = new ArrayList<>();
        model.getJsonArray("shards").forEach(entry -> servedBy.add(((JsonObject) entry).getString("servedBy")));
        return servedBy;
    }

    private static JsonObject withoutServedBy(final JsonObject model) {
        final JsonObject copy = model.copy();
        copy.getJsonArray("shards").forEach(entry -> ((JsonObject) entry).remove("servedBy"));
        return copy;
    }

    private static Properties clientProperties() {
        final Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return props;
    }

    /** {@code count} distinct ports that were free a moment ago (held together so that they differ). */
    private static List<Integer> freePorts(final int count) throws IOException {
        final List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                sockets.add(new ServerSocket(0));
            }
            return sockets.stream().map(ServerSocket::getLocalPort).toList();
        } finally {
            for (final ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }
}
