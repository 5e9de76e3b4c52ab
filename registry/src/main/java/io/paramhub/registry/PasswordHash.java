package io.paramhub.registry;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A registry user's password as the users file keeps it: a salted PBKDF2 hash (HMAC-SHA256, the JDK's
 * {@code PBKDF2WithHmacSHA256}), written {@code PBKDF2-SHA256:ITERATIONS:SALT:HASH} with the salt and the hash
 * in base64. {@link #matches} derives the hash of a given password with the same salt and iterations and
 * compares in constant time.
 */
public final class PasswordHash {

    /** The prefix of a hashed password in the users file. */
    static final String PREFIX = "PBKDF2-SHA256:";
    /** OWASP's recommendation for PBKDF2-HMAC-SHA256 (2023). */
    static final int DEFAULT_ITERATIONS = 600_000;
    /**
     * Fewer iterations than this are refused: such a hash is cheap to reverse. Also the count for passwords
     * hashed only in memory, never written (a plain one from the users file, one given in code).
     */
    public static final int MIN_ITERATIONS = 10_000;

    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final int iterations;
    private final byte[] salt;
    private final byte[] hash;

    private PasswordHash(final int iterations, final byte[] salt, final byte[] hash) {
        this.iterations = iterations;
        this.salt = salt.clone();
        this.hash = hash.clone();
    }

    /** The hash of {@code password} with a fresh random salt and {@code iterations} iterations. */
    public static PasswordHash of(final char[] password, final int iterations) {
        if (iterations < MIN_ITERATIONS) {
            throw new IllegalArgumentException(
                    "PBKDF2 needs at least " + MIN_ITERATIONS + " iterations, not " + iterations);
        }
        final byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        return new PasswordHash(iterations, salt, derive(password, salt, iterations, HASH_BITS));
    }

    /** The hash of {@code password} with a fresh random salt and {@link #DEFAULT_ITERATIONS}. */
    public static PasswordHash of(final char[] password) {
        return of(password, DEFAULT_ITERATIONS);
    }

    /** Whether {@code text} is written as a hash this class reads (it may still be malformed). */
    static boolean isHash(final String text) {
        return text.startsWith(PREFIX);
    }

    /**
     * Reads {@code PBKDF2-SHA256:ITERATIONS:SALT:HASH}.
     *
     * @throws IllegalArgumentException saying what is wrong, without the text itself (it is a secret)
     */
    public static PasswordHash parse(final String text) {
        if (!isHash(text)) {
            throw new IllegalArgumentException("a hashed password starts with " + PREFIX);
        }
        final String[] parts = text.substring(PREFIX.length()).split(":", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("a hashed password is " + PREFIX + "ITERATIONS:SALT:HASH");
        }
        final int iterations;
        final byte[] salt;
        final byte[] hash;
        try {
            iterations = Integer.parseInt(parts[0]);
            salt = Base64.getDecoder().decode(parts[1]);
            hash = Base64.getDecoder().decode(parts[2]);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "a hashed password is " + PREFIX + "ITERATIONS:SALT:HASH, a number and two base64 strings");
        }
        if (iterations < MIN_ITERATIONS) {
            throw new IllegalArgumentException(
                    "the hashed password has " + iterations + " iterations, fewer than " + MIN_ITERATIONS);
        }
        if (salt.length < 8 || hash.length < 16) {
            throw new IllegalArgumentException("the hashed password's salt or hash is too short");
        }
        return new PasswordHash(iterations, salt, hash);
    }

    /** Whether {@code password} has this hash; takes as long for any password of a given length. */
    public boolean matches(final char[] password) {
        if (password.length == 0) {
            return false;
        }
        return MessageDigest.isEqual(hash, derive(password, salt, iterations, hash.length * 8));
    }

    /** As the users file writes it. */
    public String encoded() {
        return PREFIX + iterations + ":" + Base64.getEncoder().encodeToString(salt) + ":"
                + Base64.getEncoder().encodeToString(hash);
    }

    @Override
    public String toString() {
        return PREFIX + iterations + ":...";
    }

    private static byte[] derive(final char[] password, final byte[] salt, final int iterations, final int bits) {
        final PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, bits);
        try {
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is missing from this JDK", e);
        } finally {
            spec.clearPassword();
        }
    }
}
