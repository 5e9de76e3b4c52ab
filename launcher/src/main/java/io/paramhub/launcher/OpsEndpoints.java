package io.paramhub.launcher;

import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The routes every ParamHub app serves next to its own, mounted on the app's one HTTP verticle:
 * <ul>
 *   <li>{@code GET /health/live}: 200 {@code {"status":"UP"}} while the process serves HTTP;</li>
 *   <li>{@code GET /health/ready}: 200 {@code {"status":"UP"}} when {@link Readiness} says so, else 503
 *   {@code {"status":"DOWN","reason":...}} with {@code Retry-After: 1};</li>
 *   <li>{@code GET /metrics}: every meter of {@link AppMetrics} in the Prometheus text format.</li>
 * </ul>
 */
public record OpsEndpoints(AppMetrics metrics, Readiness readiness) {

    public static final String LIVE = "/health/live";
    public static final String READY = "/health/ready";
    public static final String METRICS = "/metrics";

    /** Prometheus text exposition format 0.0.4. */
    public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    public void mount(final Router router) {
        router.get(LIVE).handler(this::live);
        router.get(READY).handler(this::ready);
        router.get(METRICS).handler(this::metrics);
    }

    private void live(final RoutingContext context) {
        json(context, 200, new JsonObject().put("status", "UP"));
    }

    private void ready(final RoutingContext context) {
        final String reason = readiness.notReadyBecause();
        if (reason == null) {
            json(context, 200, new JsonObject().put("status", "UP"));
            return;
        }
        context.response().putHeader("Retry-After", "1");
        json(context, 503, new JsonObject().put("status", "DOWN").put("reason", reason));
    }

    private void metrics(final RoutingContext context) {
        context.vertx().executeBlocking(metrics::scrape, false).onComplete(done -> {
            if (done.failed()) {
                json(
                        context,
                        500,
                        new JsonObject()
                                .put("error", String.valueOf(done.cause().getMessage())));
                return;
            }
            context.response()
                    .setStatusCode(200)
                    .putHeader("Content-Type", PROMETHEUS_TEXT)
                    .end(done.result());
        });
    }

    private static void json(final RoutingContext context, final int status, final JsonObject body) {
        context.response()
                .setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(body.encode());
    }
}
