package io.paramhub.registry;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serialises the registry's reads of the log and its writes on one thread: each write first claims the log's
 * writer (fencing any other registry instance on the same topic), reads the log to its end, decides, appends
 * one record in a transaction and reads it back, so the in-memory {@link RegistryState} only ever changes by
 * applying the log, exactly as it does on start. A write that lost the writer to another instance before it
 * committed is decided again from the log as it then is (the other instance may have registered the same
 * schema, or taken the id). Between writes the log is read every {@link #TAIL_INTERVAL}, and on demand
 * ({@link #refresh}), so that every instance serves what any of them registered.
 */
final class SchemaStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SchemaStore.class);
    private static final long START_TIMEOUT_SECONDS = 60;
    /** How often the log is read for what other registry instances wrote. */
    static final Duration TAIL_INTERVAL = Duration.ofSeconds(1);

    private static final Duration TAIL_TIMEOUT = Duration.ofSeconds(5);
    /** Attempts at a write that keeps losing the writer to other instances. */
    private static final int WRITE_ATTEMPTS = 10;

    private static final long MAX_BACKOFF_MILLIS = 200;

    private final RegistryState state = new RegistryState();
    private final SchemaLog schemaLog;
    private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(task -> {
        final Thread thread = new Thread(task, "schema-registry-writer");
        thread.setDaemon(true);
        return thread;
    });
    private CompletableFuture<Void> pendingRefresh = CompletableFuture.completedFuture(null);
    /** Whether the last periodic read failed; only the writer thread reads and writes it. */
    private boolean tailFailing;

    private SchemaStore(final SchemaLog schemaLog) {
        this.schemaLog = schemaLog;
    }

    /** Opens the log in {@code topic} and rebuilds the state from all of it; blocks until done. */
    static SchemaStore open(final Map<String, Object> kafkaConfig, final String topic) {
        final SchemaStore store = new SchemaStore(SchemaLog.open(kafkaConfig, topic));
        try {
            store.refresh().get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            store.writer.scheduleWithFixedDelay(
                    store::tail, TAIL_INTERVAL.toMillis(), TAIL_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
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
        return write(
                "registering a schema under subject '" + subject + "'",
                () -> state.find(subject, schema).map(SchemaVersion::id),
                () -> registerAsTheWriter(subject, schema));
    }

    /** Sets the compatibility level of {@code subject}, or the global one when it is null. */
    CompletableFuture<CompatibilityLevel> setLevel(final String subject, final CompatibilityLevel level) {
        return write("setting the compatibility level", Optional::empty, () -> {
            schemaLog.append(state, SchemaLogCodec.configKey(subject), SchemaLogCodec.configValue(level));
            return level;
        });
    }

    private int registerAsTheWriter(final String subject, final Schema schema)
            throws SchemaLogWriter.WriterLostException, TimeoutException, InterruptedException {
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
        schemaLog.append(
                state, SchemaLogCodec.schemaKey(subject, version.version()), SchemaLogCodec.schemaValue(version));
        log.info("registered schema, subject: {}, version: {}, id: {}", subject, version.version(), version.id());
        return version.id();
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

    /**
     * Reads what the log holds beyond what this instance has read; requests made while one such read is
     * waiting or running share it.
     */
    synchronized CompletableFuture<Void> refresh() {
        if (pendingRefresh.isDone()) {
            pendingRefresh = CompletableFuture.runAsync(
                    () -> {
                        try {
                            schemaLog.catchUp(state);
                        } catch (final TimeoutException | KafkaException e) {
                            throw RegistryException.storeError("reading " + schemaLog.topic(), e);
                        }
                    },
                    writer);
        }
        return pendingRefresh;
    }

    /** The periodic read of the log; a failure is logged and the next period tries again. */
    private void tail() {
        try {
            // briefly: a close waits for this, and Kafka may be gone
            schemaLog.catchUp(state, TAIL_TIMEOUT);
            if (tailFailing) {
                tailFailing = false;
                log.info("schema store reads {} again", schemaLog.topic());
            }
        } catch (final TimeoutException | RuntimeException e) {
            if (!tailFailing) {
                tailFailing = true;
                log.warn("schema store could not read {}, retrying every {}", schemaLog.topic(), TAIL_INTERVAL, e);
            }
        }
    }

    /**
     * Runs {@code decision} as the log's writer, unless {@code known}, asked first after reading the log
     * without claiming the writer, already has the answer (a schema registered before needs no write, and
     * should not take the writer from another instance).
     */
    private <T> CompletableFuture<T> write(
            final String operation, final Supplier<Optional<T>> known, final Write<T> decision) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        schemaLog.catchUp(state);
                        final Optional<T> answer = known.get();
                        return answer.isPresent() ? answer.get() : writeAsTheWriter(operation, decision);
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw RegistryException.storeError(operation, e);
                    } catch (final SchemaLogWriter.WriterLostException
                            | ExecutionException
                            | TimeoutException
                            | KafkaException e) {
                        log.warn("schema store failed while {}", operation, e);
                        throw RegistryException.storeError(operation, e);
                    }
                },
                writer);
    }

    private <T> T writeAsTheWriter(final String operation, final Write<T> decision)
            throws SchemaLogWriter.WriterLostException, ExecutionException, TimeoutException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            schemaLog.claimWriter();
            schemaLog.catchUp(state);
            try {
                return decision.run();
            } catch (final SchemaLogWriter.WriterLostException e) {
                if (attempt == WRITE_ATTEMPTS) {
                    throw e;
                }
                log.info("schema store lost the writer while {}, deciding again, attempt: {}", operation, attempt);
                // two instances that keep fencing each other: back off apart
                Thread.sleep(ThreadLocalRandom.current().nextLong(1, MAX_BACKOFF_MILLIS));
            }
        }
    }

    /** One serialised step of a write, run on the writer thread after the state has caught up. */
    @FunctionalInterface
    private interface Write<T> {
        T run() throws SchemaLogWriter.WriterLostException, ExecutionException, TimeoutException, InterruptedException;
    }
}
