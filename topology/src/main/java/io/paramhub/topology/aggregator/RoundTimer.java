package io.paramhub.topology.aggregator;

import java.util.HashMap;
import java.util.Map;

/**
 * Measures what each shard-round costs a shard task (the processing wall time spent on a shard since it last
 * published a version) and, on an emulated slow instance ({@link AggregatorInstance}), pads the round by
 * sleeping on the stream thread, which slows every shard of the instance as a slow machine would.
 * Single-threaded, like the task that owns it.
 */
final class RoundTimer {

    /** What one shard-round cost: measured, and padded on top. */
    record Round(double busyMs, double emulatedMs) {
        double totalMs() {
            return busyMs + emulatedMs;
        }
    }

    /** Sleeps; a test can count instead. */
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private final AggregatorInstance instance;
    private final Sleeper sleeper;
    private final Map<String, Long> busyNanos = new HashMap<>();
    private long started = -1;

    RoundTimer(final AggregatorInstance instance) {
        this(instance, nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
    }

    RoundTimer(final AggregatorInstance instance, final Sleeper sleeper) {
        this.instance = instance;
        this.sleeper = sleeper;
    }

    /** A record starts being processed. */
    void begin() {
        started = System.nanoTime();
    }

    /** The record that began last, about shard {@code key}, is done: its time counts for the shard's next round. */
    void end(final String key) {
        if (started < 0 || key == null) {
            return;
        }
        busyNanos.merge(key, System.nanoTime() - started, Long::sum);
        started = -1;
    }

    /**
     * Shard {@code key} publishes a version now: its round is the time gathered since its last one plus the
     * current record's so far; padded as the instance's emulation says. The clock restarts for the rest of the
     * current record.
     */
    Round round(final String key) {
        final long now = System.nanoTime();
        final long busy = busyNanos.getOrDefault(key, 0L) + (started >= 0 ? now - started : 0);
        busyNanos.remove(key);
        final double busyMs = busy / 1e6;
        double emulatedMs = 0;
        if (instance.emulated()) {
            final long pad = (long) ((instance.targetMs(busyMs) - busyMs) * 1e6);
            if (pad > 0) {
                try {
                    sleeper.sleep(pad);
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                emulatedMs = pad / 1e6;
            }
        }
        if (started >= 0) {
            started = System.nanoTime();
        }
        return new Round(busyMs, emulatedMs);
    }

    /** Forgets a deleted shard's time. */
    void forget(final String key) {
        busyNanos.remove(key);
    }
}
