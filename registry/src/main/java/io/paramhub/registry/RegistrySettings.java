package io.paramhub.registry;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * What a stand-alone registry runs with, layered lowest first: defaults (HTTP on {@code 127.0.0.1:8081}, so only
 * this machine reaches it); the {@code --config} properties file (Kafka client settings under their own names); the
 * environment; {@code -D key=value}; the options. The
 * environment is read as Confluent's registry image reads it, so that this registry can take that image's
 * place with the same variables: {@code SCHEMA_REGISTRY_LISTENERS} ({@code http://host:port}, the first
 * one), {@code SCHEMA_REGISTRY_KAFKASTORE_TOPIC}, {@code SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS} and
 * any other {@code SCHEMA_REGISTRY_KAFKASTORE_*} as the Kafka client setting it names
 * ({@code SCHEMA_REGISTRY_KAFKASTORE_SECURITY_PROTOCOL} is {@code security.protocol}); and, as the ParamHub
 * apps read them, {@code KAFKA_BOOTSTRAP_SERVERS}, which wins over Confluent's, and {@code PARAMHUB_HTTP_HOST}, over
 * which the host of {@code SCHEMA_REGISTRY_LISTENERS} wins. HTTPS and basic authentication
 * come from the options or from Confluent's {@code SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION},
 * {@code SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD} and {@code SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE} (PKCS12 only), with
 * an {@code https://} listener, and ParamHub's {@code PARAMHUB_REGISTRY_USERS_FILE} (a Jetty password file of
 * hashed passwords, see {@link RegistryUsers}) with {@code PARAMHUB_REGISTRY_ALLOW_PLAIN_PASSWORDS=true} to accept
 * plain ones in it. Other variables are ignored.
 *
 * @param kafka Kafka client settings of the registry's producer, consumer and admin client
 * @param topic the topic the schemas are kept in
 * @param host  the address the HTTP server binds to
 * @param port  the HTTP port, 0 for any free one
 * @param access HTTPS and basic authentication, or neither
 */
public record RegistrySettings(Map<String, Object> kafka, String topic, String host, int port, RegistryAccess access) {

    /** Only this machine reaches a registry that is not told to bind elsewhere. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    public static final int DEFAULT_PORT = 8081;
    /** Confluent's registry image's prefix of its Kafka store's settings. */
    public static final String KAFKASTORE_ENV_PREFIX = "SCHEMA_REGISTRY_KAFKASTORE_";

    public static final String LISTENERS_ENV = "SCHEMA_REGISTRY_LISTENERS";
    /** The address the HTTP server binds to, as the ParamHub apps read it; the listener's host wins over it. */
    public static final String HTTP_HOST_ENV = "PARAMHUB_HTTP_HOST";

    public static final String TOPIC_ENV = KAFKASTORE_ENV_PREFIX + "TOPIC";
    public static final String BOOTSTRAP_ENV = "KAFKA_BOOTSTRAP_SERVERS";
    public static final String KEY_STORE_ENV = "SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION";
    public static final String KEY_STORE_PASSWORD_ENV = "SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD";
    public static final String KEY_STORE_TYPE_ENV = "SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE";
    public static final String USERS_FILE_ENV = "PARAMHUB_REGISTRY_USERS_FILE";
    public static final String ALLOW_PLAIN_PASSWORDS_ENV = "PARAMHUB_REGISTRY_ALLOW_PLAIN_PASSWORDS";

    /** The options given on the command line; null where one was not given. */
    public record Options(
            String bootstrapServers,
            String host,
            Integer port,
            String topic,
            Path keyStore,
            Path keyStorePasswordFile,
            Path usersFile,
            boolean allowPlainPasswords) {

        /** Only the Kafka and HTTP options, no HTTPS and no users. */
        public Options(final String bootstrapServers, final String host, final Integer port, final String topic) {
            this(bootstrapServers, host, port, topic, null, null, null, false);
        }
    }

    /**
     * The settings from {@code file}, {@code env}, {@code overrides} ({@code -D}) and {@code options}.
     *
     * @throws IllegalArgumentException naming the setting, when bootstrap servers are missing or
     *                                  {@code SCHEMA_REGISTRY_LISTENERS} is not an {@code http://} address
     */
    public static RegistrySettings resolve(
            final Map<String, String> env,
            final Properties file,
            final Map<String, String> overrides,
            final Options options) {
        final Map<String, Object> kafka = new LinkedHashMap<>();
        file.stringPropertyNames().forEach(key -> kafka.put(key, file.getProperty(key)));
        env.forEach((name, value) -> {
            if (name.startsWith(KAFKASTORE_ENV_PREFIX) && !name.equals(TOPIC_ENV)) {
                kafka.put(settingOf(name.substring(KAFKASTORE_ENV_PREFIX.length())), value);
            }
        });
        if (env.get(BOOTSTRAP_ENV) != null) {
            kafka.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, env.get(BOOTSTRAP_ENV));
        }
        kafka.putAll(overrides);
        if (options.bootstrapServers() != null) {
            kafka.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        }
        final Object bootstrap = kafka.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        if (bootstrap == null || bootstrap.toString().isBlank()) {
            throw new IllegalArgumentException("missing setting bootstrap.servers: give --bootstrap-servers, "
                    + BOOTSTRAP_ENV + ", " + KAFKASTORE_ENV_PREFIX + "BOOTSTRAP_SERVERS or bootstrap.servers in the "
                    + "--config file");
        }
        kafka.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, withoutProtocols(bootstrap.toString()));

        String host = defaultHost(env);
        int port = DEFAULT_PORT;
        final RegistryAccess access = access(env, options);
        final String listeners = env.get(LISTENERS_ENV);
        if (listeners != null && !listeners.isBlank()) {
            final URI listener = listener(listeners);
            final boolean https = "https".equalsIgnoreCase(listener.getScheme());
            if (https != access.tls()) {
                throw new IllegalArgumentException(
                        https
                                ? LISTENERS_ENV + " is https:// but no key store is given: set " + KEY_STORE_ENV
                                        + " or --tls-keystore"
                                : LISTENERS_ENV + " is http:// but a key store is given: make it https://");
            }
            host = listener.getHost() == null ? host : listener.getHost().replaceAll("^\\[|]$", "");
            port = listener.getPort();
        }
        final String topic =
                options.topic() != null ? options.topic() : env.getOrDefault(TOPIC_ENV, SchemaLog.DEFAULT_TOPIC);
        return new RegistrySettings(
                Map.copyOf(kafka),
                topic,
                options.host() != null ? options.host() : host,
                options.port() != null ? options.port() : port,
                access);
    }

    /** {@code PARAMHUB_HTTP_HOST}, else {@link #DEFAULT_HOST}. */
    private static String defaultHost(final Map<String, String> env) {
        final String host = env.get(HTTP_HOST_ENV);
        return host == null || host.isBlank() ? DEFAULT_HOST : host.strip();
    }

    /** HTTPS when a key store is given (its password from the option's file, else the environment), users when a file is. */
    private static RegistryAccess access(final Map<String, String> env, final Options options) {
        final String keyStoreType = env.get(KEY_STORE_TYPE_ENV);
        if (keyStoreType != null
                && !keyStoreType.isBlank()
                && !KeyStoreCheck.TYPE.equalsIgnoreCase(keyStoreType.strip())) {
            throw new IllegalArgumentException(KEY_STORE_TYPE_ENV + " is " + keyStoreType + ": this registry reads "
                    + KeyStoreCheck.TYPE + " only");
        }
        final Path keyStore = options.keyStore() != null ? options.keyStore() : path(env.get(KEY_STORE_ENV));
        String password = null;
        if (keyStore != null) {
            password = options.keyStorePasswordFile() != null
                    ? firstLine(options.keyStorePasswordFile())
                    : env.get(KEY_STORE_PASSWORD_ENV);
            if (password == null) {
                throw new IllegalArgumentException("the key store " + keyStore
                        + " needs its password: --tls-keystore-password-file or " + KEY_STORE_PASSWORD_ENV);
            }
            KeyStoreCheck.requireUsable(keyStore, password);
        } else if (options.keyStorePasswordFile() != null) {
            throw new IllegalArgumentException("--tls-keystore-password-file needs --tls-keystore");
        }
        final Path usersFile = options.usersFile() != null ? options.usersFile() : path(env.get(USERS_FILE_ENV));
        final boolean allowPlain = options.allowPlainPasswords()
                || Boolean.parseBoolean(
                        env.getOrDefault(ALLOW_PLAIN_PASSWORDS_ENV, "false").strip());
        final Map<String, PasswordHash> users =
                usersFile == null ? Map.of() : RegistryUsers.read(usersFile, allowPlain);
        return new RegistryAccess(keyStore, password, users);
    }

    private static Path path(final String value) {
        return value == null || value.isBlank() ? null : Path.of(value.strip());
    }

    private static String firstLine(final Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                    .findFirst()
                    .map(String::strip)
                    .orElseThrow(() -> new IllegalArgumentException("the password file " + file + " is empty"));
        } catch (final IOException e) {
            throw new IllegalArgumentException("cannot read the password file " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@code SECURITY_PROTOCOL} → {@code security.protocol}; {@code __} → {@code _}, {@code ___} → {@code -}. */
    static String settingOf(final String envSuffix) {
        return envSuffix
                .toLowerCase(Locale.ROOT)
                .replace("___", "\u0000")
                .replace("__", "\u0001")
                .replace('_', '.')
                .replace('\u0000', '-')
                .replace('\u0001', '_');
    }

    /** {@code PLAINTEXT://kafka:9092,SSL://k2:9093} → {@code kafka:9092,k2:9093}, as Confluent's registry accepts. */
    static String withoutProtocols(final String servers) {
        final StringBuilder plain = new StringBuilder();
        for (final String server : servers.split(",")) {
            final String trimmed = server.trim();
            final int scheme = trimmed.indexOf("://");
            plain.append(plain.length() == 0 ? "" : ",").append(scheme < 0 ? trimmed : trimmed.substring(scheme + 3));
        }
        return plain.toString();
    }

    private static URI listener(final String listeners) {
        final String first = listeners.split(",")[0].trim();
        final URI uri;
        try {
            uri = URI.create(first.replace("://:", "://0.0.0.0:"));
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException(LISTENERS_ENV + ": not an address: " + first, e);
        }
        final boolean web = "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
        if (!web || uri.getPort() < 0) {
            throw new IllegalArgumentException(
                    LISTENERS_ENV + ": need http://HOST:PORT or https://HOST:PORT, not " + first);
        }
        return uri;
    }
}
