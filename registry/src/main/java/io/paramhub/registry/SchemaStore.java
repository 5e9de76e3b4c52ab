package io.paramhub.registry;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.Schema;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serialises the registry's writes on one thread: each write first reads the log to its end, decides,
 * appends one record and reads it back, so the in-memory {@link RegistryState} only ever changes by
 * applying the log, exactly as it does on start.
 */
final class SchemaStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SchemaStore.class);
    private static final long START_TIMEOUT_SECONDS = 60;

    private final RegistryState state = new RegistryState();
    private final SchemaLog schemaLog;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(task -> {
        final Thread thread = new Thread(task, "schema-registry-writer");
        thread.setDaemon(true);
        return thread;
    });

    private SchemaStore(final SchemaLog schemaLog) {
        this.schemaLog = schemaLog;
    }

    /** Opens the log in {@code topic} and rebuilds the state from all of it; blocks until done. */
    static SchemaStore open(final Map<String, Object> kafkaConfig, final String topic) {
        final SchemaStore store = new SchemaStore(SchemaLog.open(kafkaConfig, topic));
        try {
            store.write("reading " + topic, () -> null).get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            log.info("schema store ready, subjects: {}", store.state.subjects().size());
            return store;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            store.close();
            throw new IllegalStateException("interrupted reading " + topic, e);
        } catch (final ExecutionException | TimeoutException e) {
            store.close();
            throw new IllegalStateException("cannot read " + topic, e);
        }
    }

    /** What the registry knows; safe to read from any thread. */
    RegistryState state() {
        return state;
    }

    /**
     * Registers {@code schema} under {@code subject}: the id of the same schema when the subject already has
     * it, else a new version (with the schema's existing global id, or a new one) once the subject's
     * compatibility level allows it.
     */
    CompletableFuture<Integer> register(final String subject, final Schema schema) {
        return write("registering a schema under subject '" + subject + "'", () -> {
            final Optional<SchemaVersion> existing = state.find(subject, schema);
            if (existing.isPresent()) {
                return existing.get().id();
            }
            final CompatibilityLevel level = state.effectiveLevel(subject);
            final List<String> problems = level.check(schema, state.liveVersions(subject));
            if (!problems.isEmpty()) {
                throw RegistryException.incompatible(subject, problems);
            }
            final SchemaVersion version =
                    new SchemaVersion(subject, state.nextVersion(subject), state.idFor(schema), schema, false);
            schemaLog.append(SchemaLogCodec.schemaKey(subject, version.version()), SchemaLogCodec.schemaValue(version));
            schemaLog.catchUp(state);
            log.info("registered schema, subject: {}, version: {}, id: {}", subject, version.version(), version.id());
            return version.id();
        });
    }

    /** Sets the compatibility level of {@code subject}, or the global one when it is null. */
    CompletableFuture<CompatibilityLevel> setLevel(final String subject, final CompatibilityLevel level) {
        return write("setting the compatibility level", () -> {
            schemaLog.append(SchemaLogCodec.configKey(subject), SchemaLogCodec.configValue(level));
            schemaLog.catchUp(state);
            return level;
        });
    }

    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                log.warn("schema store writer still busy after {} s, closing the log anyway", START_TIMEOUT_SECONDS);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        schemaLog.close();
    }

    private <T> CompletableFuture<T> write(final String operation, final Write<T> decision) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        schemaLog.catchUp(state);
                        return decision.run();
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw RegistryException.storeError(operation, e);
                    } catch (final ExecutionException | TimeoutException | KafkaException e) {
                        log.warn("schema store failed while {}", operation, e);
                        throw RegistryException.storeError(operation, e);
                    }
                },
                writer);
    }

    /** One serialised step of a write, run on the writer thread after the state has caught up. */
    @FunctionalInterface
    private interface Write<T> {
        T run() throws ExecutionException, TimeoutException, InterruptedException;
    }
}
