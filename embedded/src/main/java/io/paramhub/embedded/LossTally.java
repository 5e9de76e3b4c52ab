package io.paramhub.embedded;

import io.paramhub.avro.IterationTelemetry;
import java.util.HashMap;
import java.util.Map;

/** Sums the loss and sample counts workers report, per epoch, to give a mean training loss. */
final class LossTally {

    private final long iterationsPerEpoch;
    private final int lastStage;
    private final Map<Integer, double[]> byEpoch = new HashMap<>();

    LossTally(final long iterationsPerEpoch) {
        this(iterationsPerEpoch, 1);
    }

    /** A tally of a job of {@code stages} pipeline stages, whose last stage alone computes the loss. */
    LossTally(final long iterationsPerEpoch, final int stages) {
        this.iterationsPerEpoch = iterationsPerEpoch;
        this.lastStage = stages - 1;
    }

    synchronized void add(final IterationTelemetry telemetry) {
        if (telemetry.getStage() != lastStage) {
            // an earlier pipeline stage computed these samples too, but not their loss
            return;
        }
        final double[] sums =
                byEpoch.computeIfAbsent((int) (telemetry.getClock() / iterationsPerEpoch), epoch -> new double[2]);
        sums[0] += telemetry.getLoss();
        sums[1] += telemetry.getSamples();
    }

    /** Mean loss per sample over {@code epoch}, NaN if nothing was reported. */
    synchronized double meanLoss(final int epoch) {
        final double[] sums = byEpoch.get(epoch);
        return sums == null || sums[1] == 0 ? Double.NaN : sums[0] / sums[1];
    }
}
