package io.paramhub.topology.aggregator;

import java.util.function.Function;

/**
 * Emulation of a slow aggregator instance ({@link AggregatorInstance#emulated()}): decorates a shard task's
 * {@link RoundTimer} so that each shard-round is padded up to the instance's emulated cost by sleeping on the
 * stream thread, which slows every shard of the instance as a slow machine would. The padding is reported
 * apart ({@link RoundTimer.Round#emulatedMs()}) and not counted as busy time.
 */
final class SlowServerEmulation implements RoundTimer {

    /** Sleeps; a test can count instead. */
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private final RoundTimer measured;
    private final AggregatorInstance instance;
    private final Sleeper sleeper;

    SlowServerEmulation(final RoundTimer measured, final AggregatorInstance instance, final Sleeper sleeper) {
        this.measured = measured;
        this.instance = instance;
        this.sleeper = sleeper;
    }

    /** Chosen when a shard task starts: the measuring timer, decorated when {@code instance} is emulated. */
    static Function<AggregatorInstance, RoundTimer> timers() {
        return instance -> instance.emulated()
                ? new SlowServerEmulation(
                        RoundTimer.measuring(),
                        instance,
                        nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)))
                : RoundTimer.measuring();
    }

    @Override
    public void begin() {
        measured.begin();
    }

    @Override
    public void end(final String key) {
        measured.end(key);
    }

    /** The measured round, padded by sleeping up to the instance's cost; the sleep is not counted as busy time. */
    @Override
    public Round round(final String key) {
        final Round round = measured.round(key);
        final long pad = (long) ((instance.targetMs(round.busyMs()) - round.busyMs()) * 1e6);
        if (pad <= 0) {
            return round;
        }
        try {
            sleeper.sleep(pad);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // the clock restarts for the rest of the current record after the sleep, as a slow machine's would
        measured.begin();
        return new Round(round.busyMs(), pad / 1e6);
    }

    @Override
    public void forget(final String key) {
        measured.forget(key);
    }
}
