package io.paramhub.bench;

import io.paramhub.worker.ComputeEmulation;
import java.util.Map;

/**
 * The heterogeneous ideal: the time the run's work would take if every worker computed all the time at
 * its emulated speed and communication were free. At clock c worker w's speed is
 * threads / (sampleCost x slowdown_w(c)) samples a second, so clock c's global batch of B samples takes
 * B / Σ_w speed_w(c) at best; the ideal is the sum over clocks, that is total samples ÷ Σ worker speeds
 * clock by clock. Zero when no cost is emulated (the real cost is then unknown in advance).
 */
final class IdealTime {

    private IdealTime() {}

    static double seconds(
            final Map<Integer, ComputeEmulation> emulations, final long clocks, final int batch, final int threads) {
        double total = 0;
        for (long clock = 0; clock < clocks; clock++) {
            double speed = 0;
            for (final ComputeEmulation emulation : emulations.values()) {
                if (emulation.sampleCostMicros() == 0) {
                    return 0;
                }
                speed += threads * 1e6 / (emulation.sampleCostMicros() * emulation.slowdownAt(clock));
            }
            total += batch / speed;
        }
        return total;
    }
}
