package io.paramhub.launcher;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The bearer token an app's HTTP endpoint asks for on the routes that return model parameters or internal
 * state, or {@link #NONE}. Presented tokens are compared in constant time (SHA-256 digests compared with
 * {@link MessageDigest#isEqual}, so neither the content nor the length of the token leaks through timing).
 * {@link #toString} never shows the token.
 */
public final class BearerToken {

    /** No token: every route is open. */
    public static final BearerToken NONE = new BearerToken(null);

    private static final String SCHEME = "Bearer ";

    private final String token;
    private final byte[] digest;

    private BearerToken(final String token) {
        this.token = token;
        this.digest = token == null ? null : sha256(token);
    }

    /** The token {@code token}; blank or null is {@link #NONE}. */
    public static BearerToken of(final String token) {
        return token == null || token.isBlank() ? NONE : new BearerToken(token.strip());
    }

    /** Whether a token is asked for. */
    public boolean required() {
        return token != null;
    }

    /** Whether {@code authorization} (an {@code Authorization} header, may be null) carries this token. */
    public boolean accepts(final String authorization) {
        if (token == null) {
            return true;
        }
        if (authorization == null || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return false;
        }
        return MessageDigest.isEqual(
                digest, sha256(authorization.substring(SCHEME.length()).strip()));
    }

    /** The {@code Authorization} header value a client sends, null when no token is asked for. */
    public String authorization() {
        return token == null ? null : SCHEME + token;
    }

    @Override
    public String toString() {
        return token == null ? "no token" : "a token";
    }

    private static byte[] sha256(final String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
