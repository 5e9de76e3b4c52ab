package io.paramhub.stream;

import java.util.concurrent.TimeUnit;

/**
 * When the examples of a stream at a fixed rate are due: example {@code k} (from 0) at {@code k / rate} seconds
 * after the start, so that the stream keeps the rate on average, also after a stall. The sender wakes in steps of
 * at most {@link #STEP_NANOS} (and at least {@link #MIN_PAUSE_NANOS}, so that a high rate does not spin) and
 * sends what is due: a smooth stream, not a burst a second. A rate of 0 means as fast as possible: everything is
 * due at once. Pure arithmetic on elapsed nanoseconds, no clock of its own.
 */
final class Pacer {

    /** The longest pause between two steps: a step never holds more than 10 ms of the stream. */
    static final long STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** The shortest pause: at a rate above 1,000 a second a step sends the examples of about 1 ms. */
    static final long MIN_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final double NANOS_PER_SECOND = 1e9;

    private final double rate;

    /**
     * A pacer of {@code rate} examples a second, 0 for no limit.
     *
     * @throws IllegalArgumentException for a negative or non-finite rate
     */
    Pacer(final double rate) {
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be >= 0 examples a second, not " + rate);
        }
        this.rate = rate;
    }

    /** Whether every example is due at once (rate 0). */
    boolean unlimited() {
        return rate == 0;
    }

    /** How many examples are due {@code elapsedNanos} after the start: the first at once, then one each 1/rate s. */
    long due(final long elapsedNanos) {
        if (unlimited()) {
            return Long.MAX_VALUE;
        }
        final double due = Math.floor(Math.max(0, elapsedNanos) * rate / NANOS_PER_SECOND) + 1;
        return due >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) due;
    }

    /**
     * How long to pause, {@code elapsedNanos} after the start with {@code sent} examples sent, before the next
     * step: 0 when example {@code sent} is due already, else the time until it is, within
     * [{@link #MIN_PAUSE_NANOS}, {@link #STEP_NANOS}].
     */
    long pause(final long sent, final long elapsedNanos) {
        if (unlimited()) {
            return 0;
        }
        final double dueAt = sent / rate * NANOS_PER_SECOND;
        final double wait = dueAt - elapsedNanos;
        if (wait <= 0) {
            return 0;
        }
        return Math.max(MIN_PAUSE_NANOS, Math.min(STEP_NANOS, (long) Math.ceil(wait)));
    }
}
