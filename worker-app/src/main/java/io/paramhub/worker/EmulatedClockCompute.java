package io.paramhub.worker;

import io.paramhub.topology.client.ModelView;
import java.util.concurrent.TimeUnit;

/**
 * Emulated compute cost around a data-parallel worker's {@link ClockCompute}: the real gradient is computed,
 * then the clock is padded by sleeping to what {@link ComputeEmulation} says its samples cost on its threads,
 * and that (emulated) time is the clock's compute time. Reads and writes no topic.
 */
final class EmulatedClockCompute implements ClockCompute {

    private final ClockCompute real;
    private final ComputeEmulation emulation;
    private final Runnable onInterrupt;

    /** {@code real} padded as {@code emulation} says; {@code onInterrupt} runs if a pad's sleep is interrupted. */
    EmulatedClockCompute(final ClockCompute real, final ComputeEmulation emulation, final Runnable onInterrupt) {
        this.real = real;
        this.emulation = emulation;
        this.onInterrupt = onInterrupt;
    }

    @Override
    public ClockWork compute(final long clock, final float[] params, final ModelView model) {
        final ClockWork work = real.compute(clock, params, model);
        if (work == null) {
            return null;
        }
        final double realMs = work.computeMs();
        final double targetMs = emulation.targetMs(realMs, work.samples(), clock, work.threads());
        final long padNanos = (long) ((targetMs - realMs) * 1e6);
        if (padNanos > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(padNanos);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                onInterrupt.run();
            }
        }
        return work.withComputeMs(targetMs);
    }

    @Override
    public long resumeClock() {
        return real.resumeClock();
    }

    @Override
    public void close() {
        real.close();
    }
}
