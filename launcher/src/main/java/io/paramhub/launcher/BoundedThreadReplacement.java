package io.paramhub.launcher;

import io.paramhub.schemas.registry.SchemaRegistryException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces a failed stream thread up to {@code maxFailures} times within {@code window}; past that
 * the error is not transient, so the client shuts down rather than loop. A thread that failed because the schema
 * registry could not answer (unreachable, HTTP 5xx) is replaced without counting: the record it could not decode
 * is read again by the new thread, after a pause that grows from {@link RegistryWait#FIRST_PAUSE} to
 * {@link RegistryWait#LONGEST_PAUSE} while the outage lasts, so the app serves again once the registry returns.
 */
public final class BoundedThreadReplacement implements StreamsUncaughtExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(BoundedThreadReplacement.class);

    private final int maxFailures;
    private final Duration window;
    private final LongSupplier nanoClock;
    private final RegistryWait.Sleeper sleeper;
    private final Deque<Long> failures = new ArrayDeque<>();
    private Duration outagePause = RegistryWait.FIRST_PAUSE;
    private long lastOutage = Long.MIN_VALUE;

    public BoundedThreadReplacement(final int maxFailures, final Duration window) {
        this(maxFailures, window, System::nanoTime, pause -> Thread.sleep(pause.toMillis()));
    }

    /**
     * As the other constructor, reading time from {@code nanoClock} (nanoseconds, as {@link System#nanoTime}) and
     * pausing with {@code sleeper}.
     */
    BoundedThreadReplacement(
            final int maxFailures,
            final Duration window,
            final LongSupplier nanoClock,
            final RegistryWait.Sleeper sleeper) {
        this.maxFailures = maxFailures;
        this.window = window;
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
    }

    @Override
    public synchronized StreamThreadExceptionResponse handle(final Throwable exception) {
        final long now = nanoClock.getAsLong();
        final SchemaRegistryException outage = SchemaRegistryException.unavailableIn(exception);
        if (outage != null) {
            return waitOutRegistryOutage(now, outage);
        }
        failures.addLast(now);
        while (!failures.isEmpty() && now - failures.peekFirst() > window.toNanos()) {
            failures.removeFirst();
        }
        if (failures.size() > maxFailures) {
            log.error("stream thread failed {} times within {}: shutting down", failures.size(), window, exception);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        log.warn(
                "stream thread failed ({} of {} allowed within {}): replacing it",
                failures.size(),
                maxFailures,
                window,
                exception);
        return StreamThreadExceptionResponse.REPLACE_THREAD;
    }

    private StreamThreadExceptionResponse waitOutRegistryOutage(final long now, final SchemaRegistryException outage) {
        // an outage that ended a while ago starts the pauses over
        if (lastOutage == Long.MIN_VALUE
                || now - lastOutage > RegistryWait.LONGEST_PAUSE.multipliedBy(2).toNanos()) {
            outagePause = RegistryWait.FIRST_PAUSE;
        }
        log.warn(
                "stream thread stopped: schema registry unavailable ({}); replacing it in {}, not counted as a failure",
                outage.getMessage(),
                outagePause);
        try {
            sleeper.sleep(outagePause);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lastOutage = nanoClock.getAsLong();
        outagePause = RegistryWait.nextPause(outagePause);
        return StreamThreadExceptionResponse.REPLACE_THREAD;
    }
}
