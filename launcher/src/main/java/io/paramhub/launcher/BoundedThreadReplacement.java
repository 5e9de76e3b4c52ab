package io.paramhub.launcher;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replaces a failed stream thread up to {@code maxFailures} times within {@code window}; past that
 * the error is not transient, so the client shuts down rather than loop.
 */
public final class BoundedThreadReplacement implements StreamsUncaughtExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(BoundedThreadReplacement.class);

    private final int maxFailures;
    private final Duration window;
    private final LongSupplier nanoClock;
    private final Deque<Long> failures = new ArrayDeque<>();

    public BoundedThreadReplacement(final int maxFailures, final Duration window) {
        this(maxFailures, window, System::nanoTime);
    }

    /** As the other constructor, reading time from {@code nanoClock} (nanoseconds, as {@link System#nanoTime}). */
    public BoundedThreadReplacement(final int maxFailures, final Duration window, final LongSupplier nanoClock) {
        this.maxFailures = maxFailures;
        this.window = window;
        this.nanoClock = nanoClock;
    }

    @Override
    public synchronized StreamThreadExceptionResponse handle(final Throwable exception) {
        final long now = nanoClock.getAsLong();
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
}
