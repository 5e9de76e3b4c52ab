package io.paramhub.orchestrator.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.launcher.HttpEndpoint;
import io.paramhub.launcher.RouterVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The dashboard's page and feed routes over boards filled by hand (no Kafka). */
@ExtendWith(VertxExtension.class)
class DashboardRoutesTest {

    private static final String HOST = "127.0.0.1";

    private static final int MAX_STREAMS = 1;

    private final JobBoards boards = new JobBoards();
    private HttpEndpoint endpoint;

    @BeforeEach
    void start() {
        final DashboardRoutes routes = new DashboardRoutes(boards, new EventStreamLimit(MAX_STREAMS));
        endpoint = HttpEndpoint.start("dashboard test endpoint", new RouterVerticle(HOST, 0) {
            @Override
            protected void mount(final Router router) {
                routes.mount(router);
            }
        });
    }

    @AfterEach
    void stop() {
        endpoint.close();
    }

    @Test
    void shouldServeThePageAndRedirectTheRootToIt(final Vertx vertx, final VertxTestContext ctx) {
        // given
        final WebClient client = WebClient.create(vertx, new WebClientOptions().setFollowRedirects(false));

        // when
        client.get(endpoint.port(), HOST, "/")
                .send()
                .compose(root -> {
                    ctx.verify(() -> {
                        assertThat(root.statusCode()).isEqualTo(302);
                        assertThat(root.getHeader("Location")).isEqualTo("/dashboard");
                    });
                    return client.get(endpoint.port(), HOST, "/dashboard").send();
                })
                // then
                .onComplete(ctx.succeeding(page -> ctx.verify(() -> {
                    assertThat(page.statusCode()).isEqualTo(200);
                    assertThat(page.getHeader("Content-Type")).startsWith("text/html");
                    assertThat(page.bodyAsString()).contains("id=\"workers\"").contains("/dashboard/dashboard.js");
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldAnswer404ForAJobNotSeenAndForAnUnknownFile(final Vertx vertx, final VertxTestContext ctx) {
        // given
        final WebClient client = WebClient.create(vertx);

        // when
        client.get(endpoint.port(), HOST, "/jobs/nobody/snapshot")
                .send()
                .compose(snapshot -> {
                    ctx.verify(() -> assertThat(snapshot.statusCode()).isEqualTo(404));
                    return client.get(endpoint.port(), HOST, "/dashboard/secret.txt")
                            .send();
                })
                // then
                .onComplete(ctx.succeeding(file -> ctx.verify(() -> {
                    assertThat(file.statusCode()).isEqualTo(404);
                    ctx.completeNow();
                })));
    }

    @Test
    void shouldPushEachPublishedSnapshotAsAServerSentEvent(final Vertx vertx, final VertxTestContext ctx) {
        // given: a job with a snapshot published, and one published after the stream opens
        final JobBoard board = boards.submit(JobBoardTestRecords.spec("j", 1_000));
        board.publish(new JobBoard.Published(
                1, new JsonObject().put("job", "j").put("seq", 1).encode()));
        final StringBuilder received = new StringBuilder();
        // held until the stream is read: Vert.x closes a client nobody references when it is garbage collected
        final HttpClient client = vertx.createHttpClient(new HttpClientOptions());

        // when
        client.request(new RequestOptions()
                        .setMethod(HttpMethod.GET)
                        .setHost(HOST)
                        .setPort(endpoint.port())
                        .setURI("/jobs/j/events"))
                .compose(request -> request.send())
                .onComplete(ctx.succeeding(response -> {
                    ctx.verify(() -> {
                        assertThat(response.statusCode()).isEqualTo(200);
                        assertThat(response.getHeader("Content-Type")).startsWith("text/event-stream");
                    });
                    response.handler(chunk -> {
                        received.append(chunk.toString());
                        if (received.indexOf("\"seq\":1") >= 0 && received.indexOf("\"seq\":2") < 0) {
                            board.publish(new JobBoard.Published(
                                    2,
                                    new JsonObject()
                                            .put("job", "j")
                                            .put("seq", 2)
                                            .encode()));
                        }
                        // then
                        if (received.indexOf("\"seq\":2") >= 0) {
                            ctx.verify(() -> assertThat(received.toString())
                                    .contains("event: snapshot\ndata: {\"job\":\"j\",\"seq\":1}\n\n")
                                    .contains("event: snapshot\ndata: {\"job\":\"j\",\"seq\":2}\n\n"));
                            client.close();
                            ctx.completeNow();
                        }
                    });
                }));
    }

    @Test
    void shouldAnswer503BeyondTheMostEventStreamsAndServeAgainOnceOneCloses(
            final Vertx vertx, final VertxTestContext ctx) {
        // given: as many streams open as allowed
        final HttpClient first = vertx.createHttpClient(new HttpClientOptions());
        final HttpClient others = vertx.createHttpClient(new HttpClientOptions());
        final WebClient plain = WebClient.create(vertx);

        // when
        events(first)
                .compose(open -> {
                    ctx.verify(() -> assertThat(open.statusCode()).isEqualTo(200));
                    return plain.get(endpoint.port(), HOST, "/jobs/j/events").send();
                })
                .compose(refused -> {
                    // then: one more is refused, saying why
                    ctx.verify(() -> {
                        assertThat(refused.statusCode()).isEqualTo(503);
                        assertThat(refused.getHeader("Retry-After")).isNotNull();
                        assertThat(refused.bodyAsJsonObject().getString("error"))
                                .contains("too many open event streams")
                                .contains("--dashboard-max-streams");
                    });
                    return first.close();
                })
                .onComplete(ctx.succeeding(closed -> retryUntilServed(vertx, others, ctx)));
    }

    /** Opens a stream until one is served (the server sees the closed stream a moment after the client). */
    private void retryUntilServed(final Vertx vertx, final HttpClient client, final VertxTestContext ctx) {
        events(client).onComplete(ctx.succeeding(response -> {
            if (response.statusCode() == 200) {
                ctx.completeNow();
            } else {
                ctx.verify(() -> assertThat(response.statusCode()).isEqualTo(503));
                response.body().onComplete(read -> vertx.setTimer(50, id -> retryUntilServed(vertx, client, ctx)));
            }
        }));
    }

    private Future<HttpClientResponse> events(final HttpClient client) {
        return client.request(new RequestOptions()
                        .setMethod(HttpMethod.GET)
                        .setHost(HOST)
                        .setPort(endpoint.port())
                        .setURI("/jobs/j/events"))
                .compose(request -> request.send());
    }

    @Test
    void shouldListJobsNewestFirst(final Vertx vertx, final VertxTestContext ctx) {
        // given
        boards.submit(JobBoardTestRecords.spec("older", 1_000));
        boards.submit(JobBoardTestRecords.spec("newer", 2_000));

        // when
        WebClient.create(vertx)
                .get(endpoint.port(), HOST, "/jobs")
                .send()
                // then
                .onComplete(ctx.succeeding(response -> ctx.verify(() -> {
                    assertThat(response.statusCode()).isEqualTo(200);
                    assertThat(response.bodyAsJsonArray().getJsonObject(0).getString("job"))
                            .isEqualTo("newer");
                    assertThat(response.bodyAsJsonArray().getJsonObject(1).getString("job"))
                            .isEqualTo("older");
                    ctx.completeNow();
                })));
    }
}
