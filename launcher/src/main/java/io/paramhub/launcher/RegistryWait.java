package io.paramhub.launcher;

import io.paramhub.schemas.registry.OutagePauses;
import io.paramhub.schemas.registry.SchemaRegistryException;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.SchemaRegistration;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits out an unavailable schema registry at an app's start: makes a call to the registry again, with pauses
 * growing from {@link #FIRST_PAUSE} to {@link #LONGEST_PAUSE}, for as long as the registry cannot answer (as a Kafka
 * client waits for its brokers); a refusal (HTTP 4xx) ends the wait at once. An app restarted while the registry is
 * down then starts when the registry returns instead of exiting.
 */
public final class RegistryWait {

    static final Duration FIRST_PAUSE = OutagePauses.FIRST;
    static final Duration LONGEST_PAUSE = OutagePauses.LONGEST;

    private static final Logger log = LoggerFactory.getLogger(RegistryWait.class);

    private RegistryWait() {}

    /** Pauses the calling thread; {@link Thread#sleep} but for tests. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration pause) throws InterruptedException;
    }

    /**
     * Registers the value schema of every topic of {@code topics} ({@link SchemaRegistration}, a no-op where the serdes
     * do not register) once the registry answers: it also fills the registry client that {@code serdes}' serdes share,
     * so that an app restarted while the registry is down waits here and, started, decodes the records of the current
     * schemas without asking the registry again.
     *
     * @param app the app, for the log
     */
    public static void registerValueSchemas(final String app, final TopicCatalog topics, final SerdeFactory serdes) {
        try {
            untilAnswered(
                    "registering the value schemas of the " + app + "'s topics",
                    () -> SchemaRegistration.registerValueSchemas(topics, serdes));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for the schema registry", e);
        }
    }

    /**
     * {@code call}'s answer once the registry gives one.
     *
     * @param what what the call does, for the log
     * @throws InterruptedException when the thread is interrupted while it waits
     */
    public static <T> T untilAnswered(final String what, final Supplier<T> call) throws InterruptedException {
        return untilAnswered(what, call, pause -> Thread.sleep(pause.toMillis()));
    }

    static <T> T untilAnswered(final String what, final Supplier<T> call, final Sleeper sleeper)
            throws InterruptedException {
        Duration pause = FIRST_PAUSE;
        for (int attempt = 1; ; attempt++) {
            try {
                final T answer = call.get();
                if (attempt > 1) {
                    log.info("schema registry answered after {} attempts, {}", attempt, what);
                }
                return answer;
            } catch (final SchemaRegistryException e) {
                if (!e.unavailable() || Thread.currentThread().isInterrupted()) {
                    throw e;
                }
                log.warn(
                        "schema registry unavailable, {}: trying again in {} (attempt {}): {}",
                        what,
                        pause,
                        attempt,
                        e.getMessage());
                sleeper.sleep(pause);
                pause = nextPause(pause);
            }
        }
    }

    /** The pause after {@code pause} while the registry stays unavailable: twice as long, at most {@link #LONGEST_PAUSE}. */
    static Duration nextPause(final Duration pause) {
        return OutagePauses.next(pause, LONGEST_PAUSE);
    }
}
