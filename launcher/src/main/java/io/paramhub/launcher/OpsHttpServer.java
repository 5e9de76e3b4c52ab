package io.paramhub.launcher;

import io.vertx.ext.web.Router;

/** The HTTP endpoint of an app that serves only {@link OpsEndpoints} (the worker). */
public final class OpsHttpServer {

    private OpsHttpServer() {}

    /** Starts the endpoint on {@code host}:{@code port} (0 = any free port); blocks until it listens. */
    public static HttpEndpoint start(final OpsEndpoints ops, final String host, final int port) {
        return HttpEndpoint.start("HTTP endpoint", new RouterVerticle(host, port) {
            @Override
            protected void mount(final Router router) {
                ops.mount(router);
            }
        });
    }
}
