package io.paramhub.aggregator.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.launcher.BearerToken;
import io.paramhub.topology.aggregator.LineageHistory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The model query routes over fake locators (and one real Kafka Streams that is not started). */
@ExtendWith(VertxExtension.class)
class ModelQueryServerTest {

    private static final String HOST = "127.0.0.1";
    private static final String JOB = "j";

    private final List<AutoCloseable> started = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (final AutoCloseable closeable : started) {
            closeable.close();
        }
    }

    @Test
    void shouldAnswerLiveWhenListening(final Vertx vertx, final VertxTestContext ctx) {
        // given
        final ModelQueryServer server = start((job, shard) -> new ShardLookup.Absent());

        // when
        get(vertx, server, "/health/live")
                // then
                .onComplete(ctx.succeeding(response -> ctx.verify(() -> {
                    assertThat(response.statusCode()).isEqualTo(200);
                    assertThat(response.bodyAsJsonObject().getString("status")).isEqualTo("UP");
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldGatherLocalAndRemoteShardsWhenTheyLiveOnTwoInstances(final Vertx vertx, final VertxTestContext ctx) {
        // given
        final ModelQueryServer other = start(found(Map.of(1, shard(1, 3, 1f), 3, shard(3, 3, 3f))));
        final HostInfo otherHost = new HostInfo(HOST, other.port());
        final ModelQueryServer server = start((job, shard) ->
                shard % 2 == 0 ? new ShardLookup.Found(shard(shard, 3, shard)) : new ShardLookup.Elsewhere(otherHost));

        // when
        get(vertx, server, "/jobs/" + JOB + "/model")
                // then
                .onComplete(ctx.succeeding(response -> ctx.verify(() -> {
                    assertThat(response.statusCode()).isEqualTo(200);
                    final JsonObject model = response.bodyAsJsonObject();
                    assertThat(model.getString("job")).isEqualTo(JOB);
                    assertThat(model.getInteger("shardCount")).isEqualTo(4);
                    assertThat(model.getInteger("parameterCount")).isEqualTo(10);
                    assertThat(model.getBoolean("complete")).isTrue();
                    assertThat(model.getJsonArray("missingShards")).isEmpty();
                    assertThat(model.getLong("minVersion")).isEqualTo(3);
                    final List<JsonObject> shards = shards(model);
                    assertThat(shards).extracting(s -> s.getInteger("shard")).containsExactly(0, 1, 2, 3);
                    assertThat(shards)
                            .extracting(s -> s.getString("servedBy"))
                            .containsExactly("local", HOST + ":" + other.port(), "local", HOST + ":" + other.port());
                    assertThat(shards)
                            .extracting(s -> s.getInteger("firstParameter"))
                            .containsExactly(0, 3, 6, 8);
                    assertThat(shards.get(1).getJsonArray("values").getDouble(2))
                            .isEqualTo((double) (1f + 0.1f * 2));
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldListMissingShardsWhenSomeAreNotFound(final Vertx vertx, final VertxTestContext ctx) {
        // given
        final ModelQueryServer server = start(found(Map.of(0, shard(0, 0, 0f), 1, shard(1, 0, 1f))));

        // when
        get(vertx, server, "/jobs/" + JOB + "/model")
                // then
                .onComplete(ctx.succeeding(response -> ctx.verify(() -> {
                    assertThat(response.statusCode()).isEqualTo(200);
                    final JsonObject model = response.bodyAsJsonObject();
                    assertThat(model.getBoolean("complete")).isFalse();
                    assertThat(model.getJsonArray("missingShards").getList()).containsExactly(2, 3);
                    assertThat(shards(model)).hasSize(2);
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldAnswer404WhenNoInstanceKnowsTheJob(final Vertx vertx, final VertxTestContext ctx) {
        // given
        final ModelQueryServer server = start(found(Map.of()));

        // when
        get(vertx, server, "/jobs/nope/model")
                // then
                .onComplete(ctx.succeeding(response -> ctx.verify(() -> {
                    assertThat(response.statusCode()).isEqualTo(404);
                    assertThat(response.bodyAsJsonObject().getString("error")).contains("nope");
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldAnswer503WhenTheHostingInstanceDoesNotAnswer(final Vertx vertx, final VertxTestContext ctx)
            throws IOException {
        // given
        final HostInfo nobody = new HostInfo(HOST, freePort());
        final ModelQueryServer server = start((job, shard) ->
                shard == 0 ? new ShardLookup.Found(shard(0, 0, 0f)) : new ShardLookup.Elsewhere(nobody));

        // when
        get(vertx, server, "/jobs/" + JOB + "/model")
                // then
                .onComplete(ctx.succeeding(response -> ctx.verify(() -> {
                    assertUnavailable(response, String.valueOf(nobody.port()));
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldAnswer503WhenTheHostingInstanceIsRebalancing(final Vertx vertx, final VertxTestContext ctx) {
        // given
        final ModelQueryServer other = start((job, shard) -> {
            throw new ModelUnavailableException("Kafka Streams is REBALANCING, not RUNNING");
        });
        final HostInfo otherHost = new HostInfo(HOST, other.port());
        final ModelQueryServer server = start((job, shard) -> new ShardLookup.Elsewhere(otherHost));

        // when
        get(vertx, server, "/jobs/" + JOB + "/model")
                // then
                .onComplete(ctx.succeeding(response -> ctx.verify(() -> {
                    assertUnavailable(response, "REBALANCING");
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldAnswer503WithRetryAfterWhenStreamsIsNotRunning(
            final Vertx vertx, final VertxTestContext ctx, @TempDir final Path stateDir) {
        // given
        final KafkaStreams streams = createdStreams(stateDir);
        final ModelQueryServer server = ModelQueryServer.start(streams, new LineageHistory(), HOST, 0);
        started.add(server);

        // when
        get(vertx, server, "/jobs/" + JOB + "/model")
                .compose(model ->
                        get(vertx, server, "/internal/shards/" + JOB + "/0").map(shard -> List.of(model, shard)))
                // then
                .onComplete(ctx.succeeding(responses -> ctx.verify(() -> {
                    assertThat(streams.state()).isEqualTo(KafkaStreams.State.CREATED);
                    responses.forEach(response -> assertUnavailable(response, "CREATED"));
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldServeOnlyLocalShardsOnTheInternalRoute(final Vertx vertx, final VertxTestContext ctx) {
        // given
        final Map<Integer, ShardLookup> lookups = Map.of(
                0, new ShardLookup.Found(shard(0, 5, 0f)),
                1, new ShardLookup.Elsewhere(new HostInfo("elsewhere", 1)),
                2, new ShardLookup.Absent());
        final ModelQueryServer server = start((job, shard) -> lookups.get(shard));

        // when
        Future.all(List.of(
                        get(vertx, server, "/internal/shards/j/0"),
                        get(vertx, server, "/internal/shards/j/1"),
                        get(vertx, server, "/internal/shards/j/2"),
                        get(vertx, server, "/internal/shards/j/x")))
                // then
                .onComplete(ctx.succeeding(all -> ctx.verify(() -> {
                    final List<HttpResponse<Buffer>> responses = all.list();
                    final JsonObject local = responses.get(0).bodyAsJsonObject();
                    assertThat(responses.get(0).statusCode()).isEqualTo(200);
                    assertThat(local.getInteger("shardCount")).isEqualTo(4);
                    assertThat(local.getLong("version")).isEqualTo(5);
                    assertThat(local.getJsonArray("values")).hasSize(3);
                    assertUnavailable(responses.get(1), "elsewhere:1");
                    assertThat(responses.get(2).statusCode()).isEqualTo(404);
                    assertThat(responses.get(3).statusCode()).isEqualTo(404);
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldAnswer401WithoutTheTokenAnd200WithItWhenATokenIsConfigured(
            final Vertx vertx, final VertxTestContext ctx) {
        // given: two instances sharing a token, shards 1 and 3 on the other one
        final BearerToken token = BearerToken.of("s3cret");
        final ModelQueryServer other = start(found(Map.of(1, shard(1, 3, 1f), 3, shard(3, 3, 3f))), token);
        final HostInfo otherHost = new HostInfo(HOST, other.port());
        final ModelQueryServer server = start(
                (job, shard) -> shard % 2 == 0
                        ? new ShardLookup.Found(shard(shard, 3, shard))
                        : new ShardLookup.Elsewhere(otherHost),
                token);
        final WebClient client = WebClient.create(vertx);

        // when
        Future.all(List.of(
                        client.get(server.port(), HOST, "/jobs/" + JOB + "/model")
                                .send(),
                        client.get(server.port(), HOST, "/jobs/" + JOB + "/model")
                                .putHeader("Authorization", "Bearer wrong")
                                .send(),
                        client.get(other.port(), HOST, "/internal/shards/" + JOB + "/1")
                                .send(),
                        client.get(server.port(), HOST, "/health/live").send(),
                        client.get(server.port(), HOST, "/jobs/" + JOB + "/model")
                                .putHeader("Authorization", "Bearer s3cret")
                                .send()))
                // then
                .onComplete(ctx.succeeding(all -> ctx.verify(() -> {
                    final List<HttpResponse<Buffer>> responses = all.list();
                    for (final HttpResponse<Buffer> refused : responses.subList(0, 3)) {
                        assertThat(refused.statusCode()).isEqualTo(401);
                        assertThat(refused.getHeader("WWW-Authenticate")).startsWith("Bearer");
                        assertThat(refused.bodyAsString()).doesNotContain("values");
                    }
                    assertThat(responses.get(3).statusCode()).isEqualTo(200);
                    final HttpResponse<Buffer> model = responses.get(4);
                    assertThat(model.statusCode()).isEqualTo(200);
                    assertThat(model.bodyAsJsonObject().getBoolean("complete")).isTrue();
                    assertThat(shards(model.bodyAsJsonObject()))
                            .extracting(s -> s.getString("servedBy"))
                            .containsExactly("local", HOST + ":" + other.port(), "local", HOST + ":" + other.port());
                    ctx.completeNow();
                })));
    }

    private ModelQueryServer start(final ShardLocator locator, final BearerToken token) {
        final ModelQueryServer server = ModelQueryServer.start(locator, HOST, 0, null, token);
        started.add(server);
        return server;
    }

    private ModelQueryServer start(final ShardLocator locator) {
        final ModelQueryServer server = ModelQueryServer.start(locator, HOST, 0);
        started.add(server);
        return server;
    }

    private KafkaStreams createdStreams(final Path stateDir) {
        final StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in", Consumed.with(Serdes.String(), Serdes.String()));
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "model-query-server-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        final KafkaStreams streams = new KafkaStreams(builder.build(), props);
        started.add(streams::close);
        return streams;
    }

    /** Shard {@code shard} of a 10-parameter, 4-shard job at {@code version}: values base, base + 0.1, ... */
    private static ShardSnapshot shard(final int shard, final long version, final float base) {
        final int first = new int[] {0, 3, 6, 8}[shard];
        final float[] values = new float[shard < 2 ? 3 : 2];
        for (int i = 0; i < values.length; i++) {
            values[i] = base + 0.1f * i;
        }
        return new ShardSnapshot(JOB, shard, 4, 10, version, version, first, values, ShardSnapshot.LOCAL);
    }

    private static ShardLocator found(final Map<Integer, ShardSnapshot> shards) {
        return (job, shard) -> JOB.equals(job) && shards.containsKey(shard)
                ? new ShardLookup.Found(shards.get(shard))
                : new ShardLookup.Absent();
    }

    private static Future<HttpResponse<Buffer>> get(
            final Vertx vertx, final ModelQueryServer server, final String path) {
        return WebClient.create(vertx).get(server.port(), HOST, path).send();
    }

    private static List<JsonObject> shards(final JsonObject model) {
        final List<JsonObject> shards = new ArrayList<>();
        model.getJsonArray("shards").forEach(shard -> shards.add((JsonObject) shard));
        return shards;
    }

    private static void assertUnavailable(final HttpResponse<Buffer> response, final String reason) {
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.getHeader("Retry-After")).isEqualTo(ModelHandlers.RETRY_AFTER_SECONDS);
        assertThat(response.getHeader("Content-Type")).isEqualTo("application/json");
        assertThat(response.bodyAsJsonObject().getString("error")).contains(reason);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
