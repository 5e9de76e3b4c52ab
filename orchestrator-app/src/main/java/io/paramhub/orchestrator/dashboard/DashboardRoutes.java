package io.paramhub.orchestrator.dashboard;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The dashboard's routes on the orchestrator's one HTTP router:
 * <ul>
 *   <li>{@code GET /dashboard}: the page (HTML, plain JavaScript, CSS; served from the classpath);
 *   {@code GET /} redirects there;</li>
 *   <li>{@code GET /jobs}: the jobs seen, newest first;</li>
 *   <li>{@code GET /jobs/{job}/snapshot}: the job's newest snapshot as JSON, 404 before any record of it;</li>
 *   <li>{@code GET /jobs/{job}/events}: Server-Sent Events, one {@code snapshot} event (the same JSON) each
 *   time a new snapshot is published, at most every {@value #PUSH_MS} ms; a comment line every
 *   {@value #KEEP_ALIVE_MS} ms when nothing changes. At most {@link EventStreamLimit} streams are open at once;
 *   beyond them 503 {@code {"error": ...}} with {@code Retry-After}.</li>
 * </ul>
 * Handlers only read published snapshots (a volatile read), so nothing blocks the event loop.
 */
final class DashboardRoutes {

    static final String PAGE = "/dashboard";
    static final long PUSH_MS = 250;
    static final long KEEP_ALIVE_MS = 15_000;
    private static final String RESOURCES = "/io/paramhub/orchestrator/dashboard/";

    private record Asset(String contentType, Buffer body) {}

    private final JobBoards boards;
    private final EventStreamLimit streams;
    private final Asset page;
    private final Map<String, Asset> assets;

    DashboardRoutes(final JobBoards boards, final EventStreamLimit streams) {
        this.boards = boards;
        this.streams = streams;
        this.page = asset("index.html", "text/html; charset=utf-8");
        this.assets = Map.of(
                "dashboard.js", asset("dashboard.js", "text/javascript; charset=utf-8"),
                "dashboard.css", asset("dashboard.css", "text/css; charset=utf-8"));
    }

    void mount(final Router router) {
        router.get("/").handler(this::home);
        router.get(PAGE).handler(context -> send(context, page));
        router.get(PAGE + "/:asset").handler(this::asset);
        router.get("/jobs").handler(this::jobs);
        router.get("/jobs/:job/snapshot").handler(this::snapshot);
        router.get("/jobs/:job/events").handler(this::events);
    }

    private void home(final RoutingContext context) {
        context.response().setStatusCode(302).putHeader("Location", PAGE).end();
    }

    private void asset(final RoutingContext context) {
        final Asset asset = assets.get(context.pathParam("asset"));
        if (asset == null) {
            json(context, 404, new JsonObject().put("error", "no such file"));
            return;
        }
        send(context, asset);
    }

    private void jobs(final RoutingContext context) {
        context.response()
                .setStatusCode(200)
                .putHeader("Content-Type", "application/json")
                .end(boards.summaries().encode());
    }

    private void snapshot(final RoutingContext context) {
        final String job = context.pathParam("job");
        final JobBoard board = boards.find(job);
        final JobBoard.Published published = board == null ? null : board.published();
        if (published == null) {
            json(context, 404, new JsonObject().put("error", "no record of job " + job + " seen yet"));
            return;
        }
        context.response()
                .setStatusCode(200)
                .putHeader("Content-Type", "application/json")
                .end(published.json());
    }

    private void events(final RoutingContext context) {
        final String job = context.pathParam("job");
        final HttpServerResponse response = context.response();
        if (!streams.tryOpen()) {
            response.putHeader("Retry-After", "10");
            json(
                    context,
                    503,
                    new JsonObject()
                            .put(
                                    "error",
                                    "too many open event streams: " + streams.max() + " are open, the most this "
                                            + "orchestrator serves (--dashboard-max-streams); close a dashboard tab "
                                            + "or raise it"));
            return;
        }
        final boolean[] counted = {true};
        final Runnable release = () -> {
            if (counted[0]) {
                counted[0] = false;
                streams.closed();
            }
        };
        response.setStatusCode(200)
                .setChunked(true)
                .putHeader("Content-Type", "text/event-stream; charset=utf-8")
                .putHeader("Cache-Control", "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        response.write("retry: 2000\n\n");
        final long[] sent = {-1};
        final long[] quietMs = {0};
        final long timer = context.vertx().setPeriodic(0, PUSH_MS, id -> {
            final JobBoard board = boards.find(job);
            final JobBoard.Published published = board == null ? null : board.published();
            if (response.closed() || response.writeQueueFull()) {
                return; // a slow client skips snapshots rather than queueing them
            }
            if (published != null && published.seq() != sent[0]) {
                response.write("event: snapshot\ndata: " + published.json() + "\n\n");
                sent[0] = published.seq();
                quietMs[0] = 0;
            } else if ((quietMs[0] += PUSH_MS) >= KEEP_ALIVE_MS) {
                response.write(": keep-alive\n\n");
                quietMs[0] = 0;
            }
        });
        response.closeHandler(closed -> {
            context.vertx().cancelTimer(timer);
            release.run();
        });
        response.exceptionHandler(error -> {
            context.vertx().cancelTimer(timer);
            release.run();
        });
    }

    private static void send(final RoutingContext context, final Asset asset) {
        context.response()
                .setStatusCode(200)
                .putHeader("Content-Type", asset.contentType())
                .putHeader("Cache-Control", "no-cache")
                .end(asset.body());
    }

    private static void json(final RoutingContext context, final int status, final JsonObject body) {
        context.response()
                .setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(body.encode());
    }

    private static Asset asset(final String name, final String contentType) {
        try (InputStream in = DashboardRoutes.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("dashboard resource " + name + " missing from the classpath");
            }
            return new Asset(contentType, Buffer.buffer(in.readAllBytes()));
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
