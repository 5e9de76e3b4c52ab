package io.paramhub.launcher;

import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running HTTP endpoint of an app: its own Vert.x instance serving one {@link RouterVerticle}.
 * {@link #start} returns only once the server listens (a port in use fails it, and nothing is left
 * running); {@link #close} stops the whole instance.
 */
public final class HttpEndpoint implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HttpEndpoint.class);
    private static final long TIMEOUT_SECONDS = 30;

    private final Vertx vertx;
    private final String name;
    private final int port;

    private HttpEndpoint(final Vertx vertx, final String name, final int port) {
        this.vertx = vertx;
        this.name = name;
        this.port = port;
    }

    /**
     * Deploys {@code verticle} on a new Vert.x instance and waits until it listens.
     *
     * @param name what the endpoint is, for log lines and errors ("model query server")
     */
    public static HttpEndpoint start(final String name, final RouterVerticle verticle) {
        final Vertx vertx = Vertx.vertx();
        try {
            vertx.deployVerticle(verticle).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (final Exception e) {
            // await() rethrows a failed listen's checked cause (a BindException) as it is
            vertx.close();
            throw new IllegalStateException(
                    "cannot start the " + name + " on " + verticle.host() + ":" + verticle.requestedPort() + ": "
                            + e.getMessage(),
                    e);
        }
        log.info("{} listening on {}:{}", name, verticle.host(), verticle.actualPort());
        return new HttpEndpoint(vertx, name, verticle.actualPort());
    }

    /** The port the endpoint listens on. */
    public int port() {
        return port;
    }

    @Override
    public void close() {
        try {
            vertx.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (final Exception e) {
            log.warn("{} did not stop within {} s", name, TIMEOUT_SECONDS, e);
        }
        log.info("{} stopped, port: {}", name, port);
    }
}
