package io.paramhub.aggregator.http;

import io.paramhub.launcher.BearerToken;
import io.paramhub.launcher.BearerTokenHandler;
import io.paramhub.launcher.OpsEndpoints;
import io.paramhub.launcher.RouterVerticle;
import io.vertx.core.Future;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

/**
 * The model query server's one HTTP verticle: routes to {@link ModelHandlers} and {@link LineageHandlers}, the
 * model and lineage routes behind the {@link BearerToken} check; deployed once it listens.
 */
final class ModelQueryVerticle extends RouterVerticle {

    private static final int CONNECT_TIMEOUT_MS = 2_000;
    private static final long REMOTE_TIMEOUT_MS = 5_000;

    private final ShardLocator locator;
    private final LineageSource lineage;
    private final OpsEndpoints ops;
    private final BearerToken token;
    private WebClient client;

    ModelQueryVerticle(
            final ShardLocator locator,
            final LineageSource lineage,
            final String host,
            final int port,
            final OpsEndpoints ops,
            final BearerToken token) {
        super(host, port);
        this.locator = locator;
        this.lineage = lineage;
        this.ops = ops;
        this.token = token;
    }

    @Override
    protected void mount(final Router router) {
        client = WebClient.create(
                vertx,
                new WebClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS).setUserAgent("paramhub-aggregator"));
        final ShardFetcher fetcher =
                new ShardFetcher(vertx, locator, new RemoteShards(client, REMOTE_TIMEOUT_MS, token));
        routes(
                router,
                new ModelHandlers(fetcher),
                new LineageHandlers(vertx, fetcher, lineage, new RemoteLineage(client, REMOTE_TIMEOUT_MS, token)));
    }

    @Override
    public Future<?> stop() {
        client.close();
        return Future.succeededFuture();
    }

    private void routes(final Router router, final ModelHandlers handlers, final LineageHandlers lineages) {
        if (ops != null) {
            ops.mount(router);
        } else {
            router.get("/health/live").handler(handlers::live);
        }
        final BearerTokenHandler guard = new BearerTokenHandler(token);
        router.get("/jobs/:job/model").handler(guard).handler(handlers::model);
        router.get("/jobs/:job/lineage").handler(guard).handler(lineages::lineage);
        router.route("/internal/*").handler(guard);
        router.get(RemoteShards.PATH + ":job/:shard").handler(handlers::internalShard);
        router.get(RemoteLineage.PATH + ":job").handler(lineages::internal);
        router.route().last().handler(handlers::notFound);
        router.route().failureHandler(handlers::failure);
    }
}
