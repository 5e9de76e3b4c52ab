package io.paramhub.launcher;

import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * A Vert.x route handler put in front of the routes that return model parameters or internal state: passes
 * the request on when it carries the endpoint's {@link BearerToken} ({@code Authorization: Bearer <token>})
 * or when no token is configured, else answers 401 {@code {"error": ...}} with
 * {@code WWW-Authenticate: Bearer realm="paramhub"}.
 */
public final class BearerTokenHandler implements Handler<RoutingContext> {

    private final BearerToken token;

    public BearerTokenHandler(final BearerToken token) {
        this.token = token;
    }

    @Override
    public void handle(final RoutingContext context) {
        if (token.accepts(context.request().getHeader("Authorization"))) {
            context.next();
            return;
        }
        context.response()
                .setStatusCode(401)
                .putHeader("WWW-Authenticate", "Bearer realm=\"paramhub\"")
                .putHeader("Content-Type", "application/json")
                .end(new JsonObject()
                        .put("error", "this route needs the endpoint's token: Authorization: Bearer <token>")
                        .encode());
    }
}
