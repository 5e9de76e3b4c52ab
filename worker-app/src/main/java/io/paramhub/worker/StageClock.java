package io.paramhub.worker;

import io.paramhub.ml.Dataset;
import io.paramhub.ml.PipelineStage;
import io.paramhub.ml.StagePass;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * One clock of a pipeline stage worker, GPipe-style: every micro-batch forward (each as soon as the previous
 * stage's activations for it are in, sent on at once so that the next stage overlaps), then every
 * micro-batch backward in order (the last stage runs each backward right after its forward); the stage's
 * parameter gradients summed over all of them. Talks to the neighbouring stages through an
 * {@link ActivationExchange}. Emulated compute cost, when asked for, lies in the stage it is given
 * ({@link ClockComputes}).
 */
final class StageClock {

    /** The summed loss (last stage; 0 elsewhere), the time spent computing and the time waiting for neighbours. */
    record Result(double loss, double computeMs, double waitMs) {}

    private StageClock() {}

    /**
     * Runs {@code stage} on {@code microBatches} for {@code clock}, adding its parameter gradients to
     * {@code gradientSum}; null if {@code stop} said so while waiting.
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
            final double[] gradientSum) {
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
            final float[][] out = pass.forward(m, train, microBatches.get(m), in);
            if (last) {
                loss += pass.loss(m);
                final float[][] inGradient = pass.backward(m, null);
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
                final float[][] inGradient = pass.backward(m, gradient);
                if (!first) {
                    exchange.sendBackward(clock, m, inGradient);
                }
            }
        }
        pass.addTo(gradientSum);
        final double totalMs = (System.nanoTime() - start) / 1e6;
        return new Result(loss, totalMs - waited / 1e6, waited / 1e6);
    }
}
