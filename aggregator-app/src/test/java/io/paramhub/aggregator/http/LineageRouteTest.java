package io.paramhub.aggregator.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.OffsetRange;
import io.paramhub.launcher.BearerToken;
import io.paramhub.topology.aggregator.ExampleLineage;
import io.paramhub.topology.aggregator.LineageHistory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code GET /jobs/{job}/lineage} over fake locators and a fake lineage history of versions 3 to 7. */
@ExtendWith(VertxExtension.class)
class LineageRouteTest {

    private static final String HOST = "127.0.0.1";
    private static final String JOB = "j";
    private static final long OLDEST = 3;
    private static final long LATEST = 7;

    private final List<AutoCloseable> started = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        for (final AutoCloseable closeable : started) {
            closeable.close();
        }
    }

    /** Version v holds offsets [0, 100 v) of partition 0 and, but for a bad example at 10, [0, 50) of partition 1. */
    private static ExampleLineage lineageOf(final long version) {
        return ExampleLineage.of(List.of(
                new OffsetRange(0, 0L, 100 * version), new OffsetRange(1, 0L, 10L), new OffsetRange(1, 11L, 50L)));
    }

    /** The history of an instance that holds shard 0 of {@link #JOB}. */
    private static LineageHistory.Lookup history(final String job, final long version) {
        if (!JOB.equals(job)) {
            return new LineageHistory.Lookup.Unknown();
        }
        final long wanted = version < 0 ? LATEST : version;
        return wanted < OLDEST || wanted > LATEST
                ? new LineageHistory.Lookup.NotKept(OLDEST, LATEST)
                : new LineageHistory.Lookup.Found(wanted, lineageOf(wanted));
    }

    /** An instance holding shard 0 of {@link #JOB} and its lineage. */
    private ModelQueryServer holder(final BearerToken token) {
        return start(
                (job, shard) -> JOB.equals(job) ? new ShardLookup.Found(null) : new ShardLookup.Absent(),
                LineageRouteTest::history,
                token);
    }

    @Test
    void shouldAnswerAVersionsRangesAndExampleCountFromTheInstanceHoldingShardZero(
            final Vertx vertx, final VertxTestContext ctx) {
        // given
        final ModelQueryServer server = holder(BearerToken.NONE);

        // when
        Future.all(List.of(get(vertx, server, "/jobs/j/lineage?version=4"), get(vertx, server, "/jobs/j/lineage")))
                // then: version 4, then the latest
                .onComplete(ctx.succeeding(all -> ctx.verify(() -> {
                    final List<HttpResponse<Buffer>> responses = all.list();
                    assertThat(responses).extracting(HttpResponse::statusCode).containsExactly(200, 200);
                    final JsonObject four = responses.get(0).bodyAsJsonObject();
                    assertThat(four.getString("job")).isEqualTo(JOB);
                    assertThat(four.getLong("version")).isEqualTo(4);
                    assertThat(four.getLong("examples")).isEqualTo(400 + 10 + 39);
                    assertThat(four.getJsonArray("ranges"))
                            .containsExactly(range(0, 0, 400), range(1, 0, 10), range(1, 11, 50));
                    final JsonObject latest = responses.get(1).bodyAsJsonObject();
                    assertThat(latest.getLong("version")).isEqualTo(LATEST);
                    assertThat(latest.getLong("examples")).isEqualTo(700 + 10 + 39);
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldAskTheInstanceHoldingShardZeroWhenItIsElsewhere(final Vertx vertx, final VertxTestContext ctx) {
        // given: shard 0 on the other instance; this one keeps no lineage of the job
        final ModelQueryServer other = holder(BearerToken.NONE);
        final HostInfo otherHost = new HostInfo(HOST, other.port());
        final ModelQueryServer server = start(
                (job, shard) -> new ShardLookup.Elsewhere(otherHost),
                (job, version) -> new LineageHistory.Lookup.Unknown(),
                BearerToken.NONE);

        // when
        Future.all(List.of(
                        get(vertx, server, "/jobs/j/lineage?version=5"),
                        get(vertx, server, "/jobs/j/lineage?version=2"),
                        get(vertx, server, "/internal/lineage/j?version=5")))
                // then: the other's answers, relayed; the internal route does not ask further
                .onComplete(ctx.succeeding(all -> ctx.verify(() -> {
                    final List<HttpResponse<Buffer>> responses = all.list();
                    assertThat(responses.get(0).statusCode()).isEqualTo(200);
                    assertThat(responses.get(0).bodyAsJsonObject().getLong("version"))
                            .isEqualTo(5);
                    assertThat(responses.get(0).bodyAsJsonObject().getJsonArray("ranges"))
                            .contains(range(0, 0, 500));
                    assertThat(responses.get(1).statusCode()).isEqualTo(404);
                    assertThat(responses.get(1).bodyAsJsonObject().getLong("oldestVersion"))
                            .isEqualTo(OLDEST);
                    assertThat(responses.get(2).statusCode()).isEqualTo(503);
                    assertThat(responses.get(2).bodyAsJsonObject().getString("error"))
                            .contains(HOST + ":" + other.port());
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldAnswer404ForAVersionNotKeptOrUnknownJobAnd400ForAMalformedVersion(
            final Vertx vertx, final VertxTestContext ctx) {
        // given
        final ModelQueryServer server = holder(BearerToken.NONE);

        // when
        Future.all(List.of(
                        get(vertx, server, "/jobs/j/lineage?version=2"),
                        get(vertx, server, "/jobs/j/lineage?version=8"),
                        get(vertx, server, "/jobs/nope/lineage"),
                        get(vertx, server, "/jobs/j/lineage?version=latest"),
                        get(vertx, server, "/jobs/j/lineage?version=-1")))
                // then
                .onComplete(ctx.succeeding(all -> ctx.verify(() -> {
                    final List<HttpResponse<Buffer>> responses = all.list();
                    assertThat(responses).extracting(HttpResponse::statusCode).containsExactly(404, 404, 404, 400, 400);
                    final JsonObject older = responses.get(0).bodyAsJsonObject();
                    assertThat(older.getString("error")).contains("version 2", "older", "3 to 7");
                    assertThat(older.getLong("latestVersion")).isEqualTo(LATEST);
                    assertThat(responses.get(1).bodyAsJsonObject().getString("error"))
                            .contains("version 8", "beyond its latest version, 7");
                    assertThat(responses.get(2).bodyAsJsonObject().getString("error"))
                            .contains("no job 'nope'");
                    assertThat(responses.get(3).bodyAsJsonObject().getString("error"))
                            .contains("'latest'");
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldAnswer401WithoutTheTokenWhenATokenIsConfigured(final Vertx vertx, final VertxTestContext ctx) {
        // given
        final BearerToken token = BearerToken.of("s3cret");
        final ModelQueryServer server = holder(token);
        final WebClient client = WebClient.create(vertx);

        // when
        Future.all(List.of(
                        client.get(server.port(), HOST, "/jobs/j/lineage").send(),
                        client.get(server.port(), HOST, "/internal/lineage/j").send(),
                        client.get(server.port(), HOST, "/jobs/j/lineage")
                                .putHeader("Authorization", "Bearer s3cret")
                                .send()))
                // then
                .onComplete(ctx.succeeding(all -> ctx.verify(() -> {
                    final List<HttpResponse<Buffer>> responses = all.list();
                    assertThat(responses).extracting(HttpResponse::statusCode).containsExactly(401, 401, 200);
                    ctx.completeNow();
                })));
    }

    private ModelQueryServer start(final ShardLocator locator, final LineageSource lineage, final BearerToken token) {
        final ModelQueryServer server = ModelQueryServer.start(locator, lineage, HOST, 0, null, token);
        started.add(server);
        return server;
    }

    private static JsonObject range(final int partition, final long start, final long end) {
        return new JsonObject().put("partition", partition).put("start", start).put("end", end);
    }

    private static Future<HttpResponse<Buffer>> get(
            final Vertx vertx, final ModelQueryServer server, final String path) {
        return WebClient.create(vertx).get(server.port(), HOST, path).send();
    }
}
