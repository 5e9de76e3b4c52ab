package io.paramhub.worker;

import io.paramhub.ml.Dataset;
import io.paramhub.ml.PipelineStage;
import io.paramhub.ml.StagePass;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One clock of a pipeline stage worker, GPipe-style: every micro-batch forward (each as soon as the previous
 * stage's activations for it are in, sent on at once so that the next stage overlaps), then every
 * micro-batch backward in order (the last stage runs each backward right after its forward); the stage's
 * parameter gradients summed over all of them. Talks to the neighbouring stages through an
 * {@link ActivationExchange}. With emulated compute ({@link ComputeEmulation}), each micro-batch's forward
 * pass is padded to a third of {@code computeShare} of its samples' cost and its backward pass to two thirds,
 * so that the stages overlap as they would if they computed for that long.
 */
final class StageClock {

    /** The part of a stage's emulated cost that its forward pass takes; backward takes the rest (twice as much). */
    static final double FORWARD_PART = 1.0 / 3;

    /** The summed loss (last stage; 0 elsewhere), the time spent computing and the time waiting for neighbours. */
    record Result(double loss, double computeMs, double waitMs) {}

    private StageClock() {}

    /**
     * Runs {@code stage} on {@code microBatches} for {@code clock}, adding its parameter gradients to
     * {@code gradientSum}; null if {@code stop} said so while waiting. Compute is padded as {@code emulation}
     * says for {@code computeShare} (this stage's share of the model's compute) of each sample's cost.
     */
    static Result run(
            final PipelineStage stage,
            final float[] params,
            final Dataset train,
            final List<int[]> microBatches,
            final long seed,
            final long clock,
            final ActivationExchange exchange,
            final Duration timeout,
            final BooleanSupplier stop,
            final double[] gradientSum,
            final ComputeEmulation emulation,
            final double computeShare) {
        final boolean first = stage.index() == 0;
        final boolean last = stage.index() == stage.stages() - 1;
        final long start = System.nanoTime();
        long waited = 0;
        final StagePass pass = stage.start(params, seed, clock);
        double loss = 0;
        for (int m = 0; m < microBatches.size(); m++) {
            float[][] in = null;
            if (!first) {
                final long waitStart = System.nanoTime();
                in = exchange.awaitForward(clock, m, timeout, stop);
                waited += System.nanoTime() - waitStart;
                if (in == null) {
                    return null;
                }
            }
            final int samples = microBatches.get(m).length;
            final long forwardStart = System.nanoTime();
            final float[][] out = pass.forward(m, train, microBatches.get(m), in);
            pad(emulation, forwardStart, samples, clock, computeShare * FORWARD_PART);
            if (last) {
                loss += pass.loss(m);
                final long backwardStart = System.nanoTime();
                final float[][] inGradient = pass.backward(m, null);
                pad(emulation, backwardStart, samples, clock, computeShare * (1 - FORWARD_PART));
                exchange.sendBackward(clock, m, inGradient);
            } else {
                exchange.sendForward(clock, m, out);
            }
        }
        if (!last) {
            for (int m = 0; m < microBatches.size(); m++) {
                final long waitStart = System.nanoTime();
                final float[][] gradient = exchange.awaitBackward(clock, m, timeout, stop);
                waited += System.nanoTime() - waitStart;
                if (gradient == null) {
                    return null;
                }
                final long backwardStart = System.nanoTime();
                final float[][] inGradient = pass.backward(m, gradient);
                pad(emulation, backwardStart, microBatches.get(m).length, clock, computeShare * (1 - FORWARD_PART));
                if (!first) {
                    exchange.sendBackward(clock, m, inGradient);
                }
            }
        }
        pass.addTo(gradientSum);
        final double totalMs = (System.nanoTime() - start) / 1e6;
        return new Result(loss, totalMs - waited / 1e6, waited / 1e6);
    }

    /** Sleeps until the step begun at {@code startNanos} has taken what {@code emulation} says it costs. */
    private static void pad(
            final ComputeEmulation emulation,
            final long startNanos,
            final int samples,
            final long clock,
            final double costFraction) {
        if (!emulation.active()) {
            return;
        }
        final double realMs = (System.nanoTime() - startNanos) / 1e6;
        final long padNanos = (long) ((emulation.targetMs(realMs, samples, clock, 1, costFraction) - realMs) * 1e6);
        if (padNanos > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(padNanos);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
