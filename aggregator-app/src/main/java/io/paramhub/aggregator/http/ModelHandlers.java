package io.paramhub.aggregator.http;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The handlers of the model query server: each reads its path, gets shards through a
 * {@link ShardFetcher} (never blocking the event loop) and answers JSON. Errors are
 * {@code {"error": "..."}}; 503 carries {@code Retry-After}.
 */
final class ModelHandlers {

    static final String RETRY_AFTER_SECONDS = "1";

    private static final Logger log = LoggerFactory.getLogger(ModelHandlers.class);

    private final ShardFetcher fetcher;

    ModelHandlers(final ShardFetcher fetcher) {
        this.fetcher = fetcher;
    }

    void live(final RoutingContext ctx) {
        json(ctx, 200, new JsonObject().put("status", "UP"));
    }

    /** {@code GET /jobs/{job}/model}: shard 0 gives the job's shape, then every shard is gathered. */
    void model(final RoutingContext ctx) {
        final String job = ctx.pathParam("job");
        if (!isJobName(job)) {
            unknownJob(ctx, job);
            return;
        }
        fetcher.fetch(job, 0)
                .compose(first -> first.isPresent()
                        ? fetcher.fetchModel(first.get()).map(Optional::of)
                        : Future.succeededFuture(Optional.<JobModel>empty()))
                .onSuccess(model ->
                        model.ifPresentOrElse(found -> json(ctx, 200, found.toJson()), () -> unknownJob(ctx, job)))
                .onFailure(ctx::fail);
    }

    /** {@code GET /internal/shards/{job}/{shard}}: one shard from this instance's stores only. */
    void internalShard(final RoutingContext ctx) {
        final String job = ctx.pathParam("job");
        final Optional<Integer> shard = parseShard(ctx.pathParam("shard"));
        if (!isJobName(job) || shard.isEmpty()) {
            error(ctx, 404, "no shard " + ctx.pathParam("shard") + " of job '" + job + "'");
            return;
        }
        fetcher.locateHere(job, shard.get())
                .onSuccess(lookup -> {
                    if (lookup instanceof ShardLookup.Found found) {
                        json(ctx, 200, found.snapshot().toJson());
                    } else if (lookup instanceof ShardLookup.Elsewhere elsewhere) {
                        unavailable(
                                ctx,
                                "shard " + shard.get() + " of job '" + job + "' is hosted by "
                                        + elsewhere.host().host() + ":"
                                        + elsewhere.host().port() + ", not here");
                    } else {
                        error(ctx, 404, "no shard " + shard.get() + " of job '" + job + "'");
                    }
                })
                .onFailure(ctx::fail);
    }

    void notFound(final RoutingContext ctx) {
        error(
                ctx,
                404,
                "no route for " + ctx.request().method() + " " + ctx.request().path());
    }

    void failure(final RoutingContext ctx) {
        final Throwable failure = ctx.failure();
        if (failure instanceof ModelUnavailableException unavailable) {
            log.debug("model query answered 503, path: {}: {}", ctx.request().path(), unavailable.getMessage());
            unavailable(ctx, unavailable.getMessage());
        } else if (failure == null && ctx.statusCode() > 0) {
            error(ctx, ctx.statusCode(), "HTTP " + ctx.statusCode());
        } else {
            log.error(
                    "model query failed, method: {}, path: {}",
                    ctx.request().method(),
                    ctx.request().path(),
                    failure);
            error(ctx, 500, "internal error: " + (failure == null ? "unknown" : failure.getMessage()));
        }
    }

    /** Job names never hold '/', which separates the job from the shard in store keys. */
    static boolean isJobName(final String job) {
        return job != null && !job.isEmpty() && job.indexOf('/') < 0;
    }

    private static Optional<Integer> parseShard(final String text) {
        try {
            final int shard = Integer.parseInt(text);
            return shard >= 0 ? Optional.of(shard) : Optional.empty();
        } catch (final NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void unknownJob(final RoutingContext ctx, final String job) {
        error(ctx, 404, "no job '" + job + "'");
    }

    private static void unavailable(final RoutingContext ctx, final String message) {
        ctx.response().putHeader("Retry-After", RETRY_AFTER_SECONDS);
        error(ctx, 503, message);
    }

    static void error(final RoutingContext ctx, final int status, final String message) {
        json(ctx, status, new JsonObject().put("error", message));
    }

    static void json(final RoutingContext ctx, final int status, final JsonObject body) {
        ctx.response()
                .setStatusCode(status)
                .putHeader("Content-Type", "application/json")
                .end(body.encode());
    }
}
