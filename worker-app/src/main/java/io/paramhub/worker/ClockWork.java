package io.paramhub.worker;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import java.time.Instant;

/**
 * What a worker's {@link ClockCompute} did in one clock: the gradient summed over its samples, how many
 * samples, their summed loss, the time spent computing and waiting for neighbouring stages, its compute
 * threads, the epoch of the plan it followed (-1 for none), and what a pipeline stage adds. Reads and writes
 * no topic: {@link #telemetry} is what the worker publishes on {@code telemetry}.
 */
record ClockWork(
        double[] gradient,
        int samples,
        double loss,
        double computeMs,
        double waitMs,
        int threads,
        long commandEpoch,
        StageWork stage) {

    /** What a pipeline stage reports of a clock: its index, activation bytes and wait, parameters held. */
    record StageWork(int index, long activationBytes, double activationWaitMs, long parametersHeld) {

        /** A worker that computes the whole model: the telemetry's defaults. */
        static final StageWork WHOLE_MODEL = new StageWork(0, 0, 0.0, 0);
    }

    /** This work, as long as {@code ms} to compute. */
    ClockWork withComputeMs(final double ms) {
        return new ClockWork(gradient, samples, loss, ms, waitMs, threads, commandEpoch, stage);
    }

    /** The telemetry of {@code worker}'s {@code clock} of {@code spec}, which waited {@code modelWaitMs} for its model. */
    IterationTelemetry telemetry(final JobSpec spec, final String worker, final long clock, final double modelWaitMs) {
        return IterationTelemetry.newBuilder()
                .setJob(spec.getJob())
                .setWorker(worker)
                .setClock(clock)
                .setSamples(samples)
                .setComputeMs(computeMs)
                .setWaitMs(modelWaitMs + waitMs)
                .setThreads(threads)
                .setBatchShare((double) samples / spec.getGlobalBatch())
                .setCommandEpoch(commandEpoch)
                .setLoss(loss)
                .setTimestamp(Instant.now())
                .setStage(stage.index())
                .setActivationBytes(stage.activationBytes())
                .setActivationWaitMs(stage.activationWaitMs())
                .setParametersHeld(stage.parametersHeld())
                .build();
    }
}
