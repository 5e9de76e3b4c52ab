package io.paramhub.embedded.secure;

import io.paramhub.schemas.registry.SchemaRegistryConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The credentials of {@code paramhub up --secure}, kept in one directory (made on the first start, read on the
 * next ones, files readable by their owner only): the certificates, the broker admin's SCRAM password and the
 * registry user's basic-auth password, one SCRAM password per {@link Role} (user {@code aggregator}, ...), all
 * random; and the client settings that use them.
 */
public record LocalSecrets(
        SelfSignedCertificates certificates,
        String adminPassword,
        String registryPassword,
        Map<Role, String> rolePasswords) {

    /** The broker's super user, whom the printed client settings log in as. */
    public static final String ADMIN = "admin";
    /** The registry's basic-auth user. */
    public static final String REGISTRY_USER = "paramhub";
    /** Where the passwords are kept, in the directory. */
    public static final String PASSWORDS = "passwords.properties";
    /** Where the admin's client settings are written, in the directory; each role's go to {@code <role>.properties}. */
    public static final String CLIENT_SETTINGS = "client.properties";

    private static final int CERTIFICATE_DAYS = 3650;

    /**
     * The secrets kept in {@code dir}, made there first when it holds none; a password missing from an older
     * directory (a role's, say) is made and kept too.
     */
    public static LocalSecrets loadOrCreate(final Path dir) {
        try {
            Files.createDirectories(dir);
            final Path passwords = dir.resolve(PASSWORDS);
            final Properties kept = new Properties();
            if (Files.isRegularFile(passwords)) {
                try (InputStream in = Files.newInputStream(passwords)) {
                    kept.load(in);
                }
            }
            final List<String> keys = new ArrayList<>(List.of("store", "admin", "registry"));
            Arrays.stream(Role.values()).forEach(role -> keys.add(role.user()));
            boolean made = false;
            for (final String key : keys) {
                if (kept.getProperty(key + ".password") == null) {
                    kept.put(key + ".password", random());
                    made = true;
                }
            }
            if (made) {
                write(passwords, kept, "paramhub up --secure: passwords");
            }
            final String storePassword = kept.getProperty("store.password");
            final SelfSignedCertificates existing = SelfSignedCertificates.existing(dir, storePassword);
            final SelfSignedCertificates certificates =
                    existing != null ? existing : SelfSignedCertificates.create(dir, storePassword, CERTIFICATE_DAYS);
            final Map<Role, String> roles = new EnumMap<>(Role.class);
            Arrays.stream(Role.values()).forEach(role -> roles.put(role, kept.getProperty(role.user() + ".password")));
            return new LocalSecrets(
                    certificates, kept.getProperty("admin.password"), kept.getProperty("registry.password"), roles);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot keep secrets in " + dir, e);
        }
    }

    public BrokerSecurity broker() {
        return new BrokerSecurity(certificates, ADMIN, adminPassword);
    }

    public LocalSecrets {
        rolePasswords = Map.copyOf(rolePasswords);
    }

    /**
     * The admin's Kafka and registry client settings of the broker at {@code bootstrapServers} and the registry at
     * {@code registryUrl}: a super user, for setting up and for tools; apps should use {@link #roleSettings}.
     */
    public Properties clientSettings(final String bootstrapServers, final String registryUrl) {
        return settings(bootstrapServers, registryUrl, ADMIN, adminPassword);
    }

    /** As {@link #clientSettings}, logged in as {@code role}'s user, who holds only the role's ACLs. */
    public Properties roleSettings(final Role role, final String bootstrapServers, final String registryUrl) {
        return settings(bootstrapServers, registryUrl, role.user(), rolePasswords.get(role));
    }

    /** Where {@code role}'s settings are written, in the directory: {@code <role>.properties}. */
    public static String roleSettingsFile(final Role role) {
        return role.user() + ".properties";
    }

    private Properties settings(
            final String bootstrapServers, final String registryUrl, final String user, final String password) {
        final Properties props = SaslSslSettings.client(
                bootstrapServers, user, password, certificates.trustStore(), certificates.password());
        props.put(SchemaRegistryConfig.SCHEMA_REGISTRY_URL, registryUrl);
        props.put(
                SchemaRegistryConfig.SSL_TRUSTSTORE_LOCATION,
                certificates.trustStore().toString());
        props.put(SchemaRegistryConfig.SSL_TRUSTSTORE_PASSWORD, certificates.password());
        props.put(SchemaRegistryConfig.SSL_TRUSTSTORE_TYPE, SelfSignedCertificates.TYPE);
        props.put(SchemaRegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE, "USER_INFO");
        props.put(SchemaRegistryConfig.BASIC_AUTH_USER_INFO, REGISTRY_USER + ":" + registryPassword);
        return props;
    }

    /** Writes {@code props} to {@code file}, readable by its owner only where the file system allows. */
    public static void write(final Path file, final Properties props, final String comment) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file);
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            props.store(out, comment);
        }
    }

    @Override
    public String toString() {
        return "LocalSecrets[" + certificates + "]";
    }

    private static String random() {
        final byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
