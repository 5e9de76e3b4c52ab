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
import java.util.Base64;
import java.util.Properties;

/**
 * The credentials of {@code paramhub up --secure}, kept in one directory (made on the first start, read on the
 * next ones, files readable by their owner only): the certificates, the broker admin's SCRAM password and the
 * registry user's basic-auth password, all random; and the client settings that use them.
 */
public record LocalSecrets(SelfSignedCertificates certificates, String adminPassword, String registryPassword) {

    /** The broker's super user, whom the printed client settings log in as. */
    public static final String ADMIN = "admin";
    /** The registry's basic-auth user. */
    public static final String REGISTRY_USER = "paramhub";
    /** Where the passwords are kept, in the directory. */
    public static final String PASSWORDS = "passwords.properties";
    /** Where the client settings are written, in the directory. */
    public static final String CLIENT_SETTINGS = "client.properties";

    private static final int CERTIFICATE_DAYS = 3650;

    /** The secrets kept in {@code dir}, made there first when it holds none. */
    public static LocalSecrets loadOrCreate(final Path dir) {
        try {
            Files.createDirectories(dir);
            final Path passwords = dir.resolve(PASSWORDS);
            final Properties kept = new Properties();
            if (Files.isRegularFile(passwords)) {
                try (InputStream in = Files.newInputStream(passwords)) {
                    kept.load(in);
                }
            } else {
                kept.put("store.password", random());
                kept.put("admin.password", random());
                kept.put("registry.password", random());
                write(passwords, kept, "paramhub up --secure: passwords");
            }
            final String storePassword = kept.getProperty("store.password");
            final SelfSignedCertificates existing = SelfSignedCertificates.existing(dir, storePassword);
            final SelfSignedCertificates certificates =
                    existing != null ? existing : SelfSignedCertificates.create(dir, storePassword, CERTIFICATE_DAYS);
            return new LocalSecrets(
                    certificates, kept.getProperty("admin.password"), kept.getProperty("registry.password"));
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot keep secrets in " + dir, e);
        }
    }

    public BrokerSecurity broker() {
        return new BrokerSecurity(certificates, ADMIN, adminPassword);
    }

    /** The Kafka and registry client settings of the broker at {@code bootstrapServers} and the registry at {@code registryUrl}. */
    public Properties clientSettings(final String bootstrapServers, final String registryUrl) {
        final Properties props = SaslSslSettings.client(
                bootstrapServers, ADMIN, adminPassword, certificates.trustStore(), certificates.password());
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
