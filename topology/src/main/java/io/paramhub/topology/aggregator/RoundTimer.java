package io.paramhub.topology.aggregator;

/**
 * What each shard-round costs a shard task: the processing wall time spent on a shard since it last published
 * a version. Single-threaded, like the task that owns it. {@link #measuring()} measures; an emulation may
 * decorate it ({@link SlowServerEmulation}), chosen when the task starts.
 */
interface RoundTimer {

    /** What one shard-round cost: measured, and padded on top. */
    record Round(double busyMs, double emulatedMs) {
        double totalMs() {
            return busyMs + emulatedMs;
        }
    }

    /** A timer that measures and pads nothing. */
    static RoundTimer measuring() {
        return new BusyTimer();
    }

    /** A record starts (or, after a pause, resumes) being processed. */
    void begin();

    /** The record that began last, about shard {@code key}, is done: its time counts for the shard's next round. */
    void end(String key);

    /**
     * Shard {@code key} publishes a version now: its round is the time gathered since its last one plus the
     * current record's so far. The clock restarts for the rest of the current record.
     */
    Round round(String key);

    /** Forgets a deleted shard's time. */
    void forget(String key);
}
