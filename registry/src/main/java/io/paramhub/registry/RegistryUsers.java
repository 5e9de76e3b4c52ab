package io.paramhub.registry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The users of a registry that asks for HTTP basic credentials, read from a password file in Jetty's
 * property-file format, the one Confluent's registry reads for its basic authentication: one
 * {@code name: password[,role...]} a line, {@code #} comments and blank lines skipped. Roles are accepted
 * and ignored (every user may do everything); obfuscated or hashed passwords ({@code OBF:}, {@code MD5:},
 * {@code CRYPT:}) are refused, since this registry compares plain passwords.
 */
final class RegistryUsers {

    private static final List<String> HASHED_PREFIXES = List.of("OBF:", "MD5:", "CRYPT:");

    private RegistryUsers() {}

    /**
     * Name to password, in file order.
     *
     * @throws IllegalArgumentException naming the file and the line, when it cannot be read, a line is not
     *                                  {@code name: password}, a name repeats, a password is hashed, or
     *                                  there is no user at all
     */
    static Map<String, String> read(final Path file) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot read the users file " + file + ": " + e.getMessage(), e);
        }
        final Map<String, String> users = new LinkedHashMap<>();
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
            final String upper = password.toUpperCase(Locale.ROOT);
            if (HASHED_PREFIXES.stream().anyMatch(upper::startsWith)) {
                throw new IllegalArgumentException("users file " + file + ", line " + number + ": the password of "
                        + name + " is obfuscated or hashed; this registry needs it plain");
            }
            if (users.putIfAbsent(name, password) != null) {
                throw new IllegalArgumentException(
                        "users file " + file + ", line " + number + ": user " + name + " is listed twice");
            }
        }
        if (users.isEmpty()) {
            throw new IllegalArgumentException("users file " + file + " lists no user");
        }
        return users;
    }
}
