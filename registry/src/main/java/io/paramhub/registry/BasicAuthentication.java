package io.paramhub.registry;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lets a request through only with HTTP basic credentials of one of the registry's users; else answers 401 with
 * {@code WWW-Authenticate} and Confluent's error body ({@code error_code} 401). Passwords are checked against
 * their salted hashes ({@link PasswordHash}) on a worker thread, never on the event loop, with the request paused
 * meanwhile; an unknown user costs as long as a known one. Since each check costs a few hundred milliseconds on
 * purpose, the last password that matched for each user is remembered as a keyed SHA-256 digest (the key random
 * per process), and a request with that password again is let through after comparing digests in constant time.
 */
final class BasicAuthentication implements Handler<RoutingContext> {

    private static final String PREFIX = "Basic ";

    private final Map<String, PasswordHash> users;
    private final PasswordHash anyUser;
    private final byte[] digestKey = new byte[32];
    private final Map<String, byte[]> verified = new ConcurrentHashMap<>();

    BasicAuthentication(final Map<String, PasswordHash> users) {
        if (users.isEmpty()) {
            throw new IllegalArgumentException("basic authentication needs at least one user");
        }
        this.users = Map.copyOf(users);
        this.anyUser = users.values().iterator().next();
        new SecureRandom().nextBytes(digestKey);
    }

    @Override
    public void handle(final RoutingContext context) {
        final Credentials credentials = Credentials.parse(context.request().getHeader("Authorization"));
        if (credentials == null) {
            refuse(context);
            return;
        }
        final byte[] digest = digest(credentials);
        final byte[] known = verified.get(credentials.name());
        if (known != null && MessageDigest.isEqual(known, digest)) {
            context.next();
            return;
        }
        // the body is read by a later handler: hold it back while the hash is derived elsewhere
        context.request().pause();
        final PasswordHash hash = users.get(credentials.name());
        context.vertx()
                .executeBlocking(
                        () -> {
                            // an unknown name is checked against some user's hash, to take as long, and refused
                            final boolean matches = (hash == null ? anyUser : hash).matches(credentials.password());
                            return matches && hash != null;
                        },
                        false)
                .onComplete(checked -> {
                    if (checked.succeeded() && checked.result()) {
                        verified.put(credentials.name(), digest);
                        context.next();
                    } else {
                        context.request().resume();
                        refuse(context);
                    }
                });
    }

    private byte[] digest(final Credentials credentials) {
        try {
            final MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(digestKey);
            sha.update(credentials.name().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            final ByteBuffer password = StandardCharsets.UTF_8.encode(CharBuffer.wrap(credentials.password()));
            sha.update(password);
            return sha.digest();
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    private static void refuse(final RoutingContext context) {
        context.response()
                .setStatusCode(401)
                .putHeader("WWW-Authenticate", "Basic realm=\"paramhub-registry\"")
                .putHeader("Content-Type", "application/vnd.schemaregistry.v1+json")
                .end("{\"error_code\":401,\"message\":\"Unauthorized\"}");
    }

    /** A name and password from an {@code Authorization: Basic ...} header. */
    private record Credentials(String name, char[] password) {

        /** The credentials of {@code header}, or null when it holds none. */
        static Credentials parse(final String header) {
            if (header == null || !header.startsWith(PREFIX)) {
                return null;
            }
            final String decoded;
            try {
                decoded = new String(
                        Base64.getDecoder()
                                .decode(header.substring(PREFIX.length()).trim()),
                        StandardCharsets.UTF_8);
            } catch (final IllegalArgumentException e) {
                return null;
            }
            final int colon = decoded.indexOf(':');
            return colon < 0
                    ? null
                    : new Credentials(
                            decoded.substring(0, colon),
                            decoded.substring(colon + 1).toCharArray());
        }
    }
}
