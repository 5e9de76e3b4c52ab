package io.paramhub.registry;

import io.vertx.core.Vertx;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Confluent-compatible schema registry (Avro only) that stores its schemas and compatibility settings in
 * a compacted Kafka topic ({@code _schemas}, as Confluent's), in the record format Confluent's registry uses,
 * and rebuilds them from it on start, so ids and versions survive restarts. It answers the REST calls the serdes and
 * tools need: register and look up schemas, list subjects and versions, fetch schemas by id, get and set
 * compatibility levels and test compatibility.
 *
 * <p>Several instances may share one topic: they write through one fenced transactional writer
 * ({@link SchemaLogWriter}), so no id names two schemas, and each reads what the others wrote
 * ({@link SchemaStore}). Deletes, modes, contexts and schema references are not supported.
 */
public final class SchemaRegistryServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SchemaRegistryServer.class);
    private static final long TIMEOUT_SECONDS = 30;

    private final SchemaStore store;
    private final Vertx vertx;
    private final String url;

    private SchemaRegistryServer(final SchemaStore store, final Vertx vertx, final String url) {
        this.store = store;
        this.vertx = vertx;
        this.url = url;
    }

    /**
     * Starts a registry on {@code host}:{@code port} (0 for any free port) backed by the cluster at
     * {@code bootstrapServers}; blocks until it has read {@code _schemas} and listens.
     */
    public static SchemaRegistryServer start(final String bootstrapServers, final String host, final int port) {
        return start(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), host, port);
    }

    /**
     * Starts a registry whose Kafka clients use {@code kafkaConfig} (bootstrap servers and, say, security
     * settings); blocks until it has read {@code _schemas} and listens.
     */
    public static SchemaRegistryServer start(final Map<String, Object> kafkaConfig, final String host, final int port) {
        return start(kafkaConfig, SchemaLog.DEFAULT_TOPIC, host, port);
    }

    /**
     * Starts a registry that keeps its schemas in {@code topic}, with Kafka clients configured by
     * {@code kafkaConfig}; blocks until it has read the topic and listens.
     */
    public static SchemaRegistryServer start(
            final Map<String, Object> kafkaConfig, final String topic, final String host, final int port) {
        return start(kafkaConfig, topic, host, port, RegistryAccess.open());
    }

    /**
     * As {@link #start(Map, String, String, int)}, serving HTTPS and asking for basic credentials as
     * {@code access} says; the URL is then {@code https://}.
     */
    public static SchemaRegistryServer start(
            final Map<String, Object> kafkaConfig,
            final String topic,
            final String host,
            final int port,
            final RegistryAccess access) {
        final SchemaStore store = SchemaStore.open(kafkaConfig, topic);
        final Vertx vertx = Vertx.vertx();
        final RegistryVerticle verticle = new RegistryVerticle(store, host, port, access);
        try {
            vertx.deployVerticle(verticle).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (final TimeoutException | RuntimeException e) {
            vertx.close();
            store.close();
            throw new IllegalStateException("cannot start the schema registry on " + host + ":" + port, e);
        }
        final String url = (access.tls() ? "https://" : "http://") + reachableHost(host) + ":" + verticle.actualPort();
        log.info("schema registry listening, url: {}", url);
        return new SchemaRegistryServer(store, vertx, url);
    }

    /** The base URL clients use, e.g. {@code http://localhost:8081}. */
    public String url() {
        return url;
    }

    /** Stops answering, then closes the Kafka clients. */
    @Override
    public void close() {
        try {
            vertx.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (final TimeoutException e) {
            log.warn("schema registry HTTP server did not stop within {} s", TIMEOUT_SECONDS, e);
        } finally {
            store.close();
        }
        log.info("schema registry stopped, url: {}", url);
    }

    private static String reachableHost(final String host) {
        if ("0.0.0.0".equals(host) || "::".equals(host) || host.isBlank()) {
            return "localhost";
        }
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
