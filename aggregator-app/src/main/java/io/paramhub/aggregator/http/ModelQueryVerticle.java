package io.paramhub.aggregator.http;

import io.paramhub.launcher.OpsEndpoints;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

/** The model query server's one HTTP verticle: routes to {@link ModelHandlers}; deployed once it listens. */
final class ModelQueryVerticle extends VerticleBase {

    private static final int CONNECT_TIMEOUT_MS = 2_000;
    private static final long REMOTE_TIMEOUT_MS = 5_000;

    private final ShardLocator locator;
    private final String host;
    private final int port;
    private final OpsEndpoints ops;
    private WebClient client;
    private volatile HttpServer server;

    ModelQueryVerticle(final ShardLocator locator, final String host, final int port, final OpsEndpoints ops) {
        this.locator = locator;
        this.host = host;
        this.port = port;
        this.ops = ops;
    }

    @Override
    public Future<?> start() {
        client = WebClient.create(vertx, new WebClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS)
            .setUserAgent("paramhub-aggregator"));
        final ShardFetcher fetcher = new ShardFetcher(vertx, locator, new RemoteShards(client, REMOTE_TIMEOUT_MS));
        return vertx.createHttpServer()
            .requestHandler(router(new ModelHandlers(fetcher)))
            .listen(port, host)
            .onSuccess(listening -> server = listening);
    }

    @Override
    public Future<?> stop() {
        client.close();
        return Future.succeededFuture();
    }

    /** The port the server listens on; valid once deployed. */
    int actualPort() {
        return server.actualPort();
    }

    private Router router(final ModelHandlers handlers) {
        final Router router = Router.router(vertx);
        if (ops != null) {
            ops.mount(router);
        } else {
            router.get("/health/live").handler(handlers::live);
        }
        router.get("/jobs/:job/model").handler(handlers::model);
        router.get(RemoteShards.PATH + ":job/:shard").handler(handlers::internalShard);
        router.route().last().handler(handlers::notFound);
        router.route().failureHandler(handlers::failure);
        return router;
    }
}
