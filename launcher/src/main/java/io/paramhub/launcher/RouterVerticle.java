package io.paramhub.launcher;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;

/**
 * An app's one HTTP verticle: serves one router on one host and port, and counts as deployed only
 * once its server listens. Subclasses mount their routes (and may create what the routes need, such
 * as a web client, since {@link #vertx} is set by then).
 */
public abstract class RouterVerticle extends VerticleBase {

    private final String host;
    private final int port;
    private volatile HttpServer server;

    /** @param port the port to listen on; 0 = any free port */
    protected RouterVerticle(final String host, final int port) {
        this.host = host;
        this.port = port;
    }

    /** Adds this verticle's routes to {@code router}. */
    protected abstract void mount(Router router);

    @Override
    public final Future<?> start() {
        final Router router = Router.router(vertx);
        mount(router);
        return vertx.createHttpServer()
                .requestHandler(router)
                .listen(port, host)
                .onSuccess(listening -> server = listening);
    }

    /** The port the server listens on; valid once deployed. */
    public int actualPort() {
        return server.actualPort();
    }

    String host() {
        return host;
    }

    int requestedPort() {
        return port;
    }
}
