package io.paramhub.registry;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Map;

/**
 * Lets a request through only with HTTP basic credentials of one of the registry's users; else answers 401 with
 * {@code WWW-Authenticate} and Confluent's error body ({@code error_code} 401).
 */
final class BasicAuthentication implements Handler<RoutingContext> {

    private static final String PREFIX = "Basic ";

    private final Map<String, String> users;

    BasicAuthentication(final Map<String, String> users) {
        this.users = Map.copyOf(users);
    }

    @Override
    public void handle(final RoutingContext context) {
        if (allowed(context.request().getHeader("Authorization"))) {
            context.next();
            return;
        }
        context.response()
                .setStatusCode(401)
                .putHeader("WWW-Authenticate", "Basic realm=\"paramhub-registry\"")
                .putHeader("Content-Type", "application/vnd.schemaregistry.v1+json")
                .end("{\"error_code\":401,\"message\":\"Unauthorized\"}");
    }

    private boolean allowed(final String header) {
        if (header == null || !header.startsWith(PREFIX)) {
            return false;
        }
        final String decoded;
        try {
            decoded = new String(
                    Base64.getDecoder().decode(header.substring(PREFIX.length()).trim()), StandardCharsets.UTF_8);
        } catch (final IllegalArgumentException e) {
            return false;
        }
        final int colon = decoded.indexOf(':');
        if (colon < 0) {
            return false;
        }
        final String expected = users.get(decoded.substring(0, colon));
        return expected != null
                && MessageDigest.isEqual(
                        expected.getBytes(StandardCharsets.UTF_8),
                        decoded.substring(colon + 1).getBytes(StandardCharsets.UTF_8));
    }
}
