package io.paramhub.registry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The users of a registry that asks for HTTP basic credentials, read from a password file in Jetty's
 * property-file format, the one Confluent's registry reads for its basic authentication: one
 * {@code name: credential[,role...]} a line, {@code #} comments and blank lines skipped. The credential is a
 * salted hash, {@code PBKDF2-SHA256:ITERATIONS:SALT:HASH} ({@link PasswordHash}; {@code paramhub-registry
 * hash-password} writes one). A plain password is refused unless plain passwords are explicitly allowed, and
 * then each one is logged as a warning and kept only as a hash in memory. Roles are accepted and ignored (every
 * user may do everything); Jetty's obfuscated and weakly hashed forms ({@code OBF:}, {@code MD5:},
 * {@code CRYPT:}) are refused.
 */
final class RegistryUsers {

    private static final Logger log = LoggerFactory.getLogger(RegistryUsers.class);
    private static final List<String> JETTY_PREFIXES = List.of("OBF:", "MD5:", "CRYPT:");

    private RegistryUsers() {}

    /**
     * Name to password hash, in file order.
     *
     * @param allowPlain whether a plain password is accepted (with a warning) rather than refused
     * @throws IllegalArgumentException naming the file and the line, when it cannot be read, a line is not
     *                                  {@code name: credential}, a name repeats, a hash is malformed, a
     *                                  password is plain and not allowed to be or in one of Jetty's forms, or
     *                                  there is no user at all
     */
    static Map<String, PasswordHash> read(final Path file, final boolean allowPlain) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot read the users file " + file + ": " + e.getMessage(), e);
        }
        final Map<String, PasswordHash> users = new LinkedHashMap<>();
        for (int number = 1; number <= lines.size(); number++) {
            final String line = lines.get(number - 1).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final int colon = line.indexOf(':');
            final String name = colon < 0 ? "" : line.substring(0, colon).strip();
            final String credential = colon < 0 ? "" : line.substring(colon + 1).strip();
            final int comma = credential.indexOf(',');
            final String password = (comma < 0 ? credential : credential.substring(0, comma)).strip();
            if (name.isEmpty() || password.isEmpty()) {
                throw new IllegalArgumentException(
                        "users file " + file + ", line " + number + ": need name: password[,role...]");
            }
            final String where = "users file " + file + ", line " + number + ": ";
            if (users.containsKey(name)) {
                throw new IllegalArgumentException(where + "user " + name + " is listed twice");
            }
            users.put(name, credential(where, name, password, allowPlain));
        }
        if (users.isEmpty()) {
            throw new IllegalArgumentException("users file " + file + " lists no user");
        }
        return users;
    }

    private static PasswordHash credential(
            final String where, final String name, final String password, final boolean allowPlain) {
        if (PasswordHash.isHash(password)) {
            try {
                return PasswordHash.parse(password);
            } catch (final IllegalArgumentException e) {
                throw new IllegalArgumentException(where + "the password of " + name + ": " + e.getMessage(), e);
            }
        }
        final String upper = password.toUpperCase(Locale.ROOT);
        if (JETTY_PREFIXES.stream().anyMatch(upper::startsWith)) {
            throw new IllegalArgumentException(where + "the password of " + name + " is in one of Jetty's "
                    + "obfuscated or MD5/crypt forms; write it as " + PasswordHash.PREFIX + "... (hash-password)");
        }
        if (!allowPlain) {
            throw new IllegalArgumentException(where + "the password of " + name + " is plain text; write its hash "
                    + "(paramhub-registry hash-password, or paramhub registry hash-password) or allow plain passwords "
                    + "with --allow-plain-passwords");
        }
        log.warn(
                "{}the password of {} is plain text in the file (allowed by --allow-plain-passwords): "
                        + "replace it with its hash",
                where,
                name);
        return PasswordHash.of(password.toCharArray(), PasswordHash.MIN_ITERATIONS);
    }
}
