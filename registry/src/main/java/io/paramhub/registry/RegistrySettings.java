package io.paramhub.registry;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * What a stand-alone registry runs with, layered lowest first: defaults; the {@code --config} properties file
 * (Kafka client settings under their own names); the environment; {@code -D key=value}; the options. The
 * environment is read as Confluent's registry image reads it, so that this registry can take that image's
 * place with the same variables: {@code SCHEMA_REGISTRY_LISTENERS} ({@code http://host:port}, the first
 * one), {@code SCHEMA_REGISTRY_KAFKASTORE_TOPIC}, {@code SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS} and
 * any other {@code SCHEMA_REGISTRY_KAFKASTORE_*} as the Kafka client setting it names
 * ({@code SCHEMA_REGISTRY_KAFKASTORE_SECURITY_PROTOCOL} is {@code security.protocol}); and, as the ParamHub
 * apps read it, {@code KAFKA_BOOTSTRAP_SERVERS}, which wins over Confluent's. Other variables are ignored.
 *
 * @param kafka Kafka client settings of the registry's producer, consumer and admin client
 * @param topic the topic the schemas are kept in
 * @param host  the address the HTTP server binds to
 * @param port  the HTTP port, 0 for any free one
 */
public record RegistrySettings(Map<String, Object> kafka, String topic, String host, int port) {

    public static final String DEFAULT_HOST = "0.0.0.0";
    public static final int DEFAULT_PORT = 8081;
    /** Confluent's registry image's prefix of its Kafka store's settings. */
    public static final String KAFKASTORE_ENV_PREFIX = "SCHEMA_REGISTRY_KAFKASTORE_";

    public static final String LISTENERS_ENV = "SCHEMA_REGISTRY_LISTENERS";
    public static final String TOPIC_ENV = KAFKASTORE_ENV_PREFIX + "TOPIC";
    public static final String BOOTSTRAP_ENV = "KAFKA_BOOTSTRAP_SERVERS";

    /** The options given on the command line; null where one was not given. */
    public record Options(String bootstrapServers, String host, Integer port, String topic) {}

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

        String host = DEFAULT_HOST;
        int port = DEFAULT_PORT;
        final String listeners = env.get(LISTENERS_ENV);
        if (listeners != null && !listeners.isBlank()) {
            final URI listener = listener(listeners);
            host = listener.getHost() == null
                    ? DEFAULT_HOST
                    : listener.getHost().replaceAll("^\\[|]$", "");
            port = listener.getPort();
        }
        final String topic =
                options.topic() != null ? options.topic() : env.getOrDefault(TOPIC_ENV, SchemaLog.DEFAULT_TOPIC);
        return new RegistrySettings(
                Map.copyOf(kafka),
                topic,
                options.host() != null ? options.host() : host,
                options.port() != null ? options.port() : port);
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
        if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getPort() < 0) {
            throw new IllegalArgumentException(LISTENERS_ENV + ": need http://HOST:PORT, not " + first);
        }
        return uri;
    }
}
