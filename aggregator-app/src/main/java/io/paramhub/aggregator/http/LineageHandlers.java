package io.paramhub.aggregator.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.util.OptionalLong;

/**
 * The lineage routes of the model query server: {@code GET /jobs/{job}/lineage?version=V} finds the instance
 * that holds the job's shard 0 as the model route does ({@link ShardFetcher}) and answers from its
 * {@link LineageSource}, here or asked with {@code GET /internal/lineage/{job}} ({@link RemoteLineage}), which
 * answers from this instance only. Never blocks the event loop.
 */
final class LineageHandlers {

    private final Vertx vertx;
    private final ShardFetcher fetcher;
    private final LineageSource lineage;
    private final RemoteLineage remote;

    LineageHandlers(
            final Vertx vertx, final ShardFetcher fetcher, final LineageSource lineage, final RemoteLineage remote) {
        this.vertx = vertx;
        this.fetcher = fetcher;
        this.lineage = lineage;
        this.remote = remote;
    }

    /** {@code GET /jobs/{job}/lineage}: from whichever instance holds shard 0. */
    void lineage(final RoutingContext ctx) {
        answer(ctx, true);
    }

    /** {@code GET /internal/lineage/{job}}: from this instance only; 503 when shard 0 is elsewhere. */
    void internal(final RoutingContext ctx) {
        answer(ctx, false);
    }

    private void answer(final RoutingContext ctx, final boolean ask) {
        final String job = ctx.pathParam("job");
        if (!ModelHandlers.isJobName(job)) {
            reply(ctx, LineageAnswer.unknownJob(job));
            return;
        }
        final String given = ctx.request().getParam("version");
        final OptionalLong version = parseVersion(given);
        if (version.isEmpty()) {
            ModelHandlers.error(ctx, 400, "version must be a whole number, 0 or more, not '" + given + "'");
            return;
        }
        final long asked = version.getAsLong();
        fetcher.locateHere(job, 0)
                .compose(lookup -> {
                    if (lookup instanceof ShardLookup.Found) {
                        return vertx.executeBlocking(() -> LineageAnswer.of(job, asked, lineage.at(job, asked)), false);
                    }
                    if (lookup instanceof ShardLookup.Elsewhere elsewhere) {
                        return ask
                                ? remote.fetch(elsewhere.host(), job, asked)
                                : Future.failedFuture(new ModelUnavailableException("shard 0 of job '" + job
                                        + "' is hosted by " + elsewhere.host().host() + ":"
                                        + elsewhere.host().port() + ", not here"));
                    }
                    return Future.succeededFuture(LineageAnswer.unknownJob(job));
                })
                .onSuccess(answer -> reply(ctx, answer))
                .onFailure(ctx::fail);
    }

    /** The version asked for: -1 (the latest) when none is given, empty when it is not a whole number >= 0. */
    private static OptionalLong parseVersion(final String given) {
        if (given == null) {
            return OptionalLong.of(-1);
        }
        try {
            final long version = Long.parseLong(given.trim());
            return version >= 0 ? OptionalLong.of(version) : OptionalLong.empty();
        } catch (final NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static void reply(final RoutingContext ctx, final LineageAnswer answer) {
        ModelHandlers.json(ctx, answer.status(), answer.body());
    }
}
