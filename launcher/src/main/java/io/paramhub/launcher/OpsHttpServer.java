package io.paramhub.launcher;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The HTTP server of an app that serves only {@link OpsEndpoints} (the worker): one verticle, deployed once it listens. */
public final class OpsHttpServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OpsHttpServer.class);
    private static final long TIMEOUT_SECONDS = 30;

    private final Vertx vertx;
    private final int port;

    private OpsHttpServer(final Vertx vertx, final int port) {
        this.vertx = vertx;
        this.port = port;
    }

    /** Starts the server on {@code host}:{@code port} (0 = any free port); blocks until it listens. */
    public static OpsHttpServer start(final OpsEndpoints ops, final String host, final int port) {
        final Vertx vertx = Vertx.vertx();
        final OpsVerticle verticle = new OpsVerticle(ops, host, port);
        try {
            vertx.deployVerticle(verticle).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (final Exception e) {
            vertx.close();
            throw new IllegalStateException("cannot start the HTTP endpoint on " + host + ":" + port + ": " + e, e);
        }
        log.info("HTTP endpoint listening on {}:{}", host, verticle.server.actualPort());
        return new OpsHttpServer(vertx, verticle.server.actualPort());
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        try {
            vertx.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (final Exception e) {
            log.warn("HTTP endpoint did not stop within {} s", TIMEOUT_SECONDS, e);
        }
    }

    private static final class OpsVerticle extends VerticleBase {
        private final OpsEndpoints ops;
        private final String host;
        private final int port;
        private volatile HttpServer server;

        OpsVerticle(final OpsEndpoints ops, final String host, final int port) {
            this.ops = ops;
            this.host = host;
            this.port = port;
        }

        @Override
        public Future<?> start() {
            final Router router = Router.router(vertx);
            ops.mount(router);
            return vertx.createHttpServer().requestHandler(router).listen(port, host)
                .onSuccess(listening -> server = listening);
        }
    }
}
