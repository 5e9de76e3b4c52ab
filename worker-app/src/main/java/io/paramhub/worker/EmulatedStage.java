package io.paramhub.worker;

import io.paramhub.ml.Dataset;
import io.paramhub.ml.ParameterRange;
import io.paramhub.ml.PipelineStage;
import io.paramhub.ml.StagePass;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Emulated compute cost around a pipeline stage: each micro-batch's forward pass is padded by sleeping to a
 * third of {@code computeShare} (the stage's share of the model's compute) of its samples' cost as
 * {@link ComputeEmulation} says, and its backward pass to two thirds, so that the stages overlap as they would
 * if they computed for that long. Otherwise the stage it wraps, unchanged. Reads and writes no topic.
 */
final class EmulatedStage implements PipelineStage {

    /** The part of a stage's emulated cost that its forward pass takes; backward takes the rest (twice as much). */
    static final double FORWARD_PART = 1.0 / 3;

    private final PipelineStage real;
    private final ComputeEmulation emulation;
    private final double computeShare;

    EmulatedStage(final PipelineStage real, final ComputeEmulation emulation, final double computeShare) {
        this.real = real;
        this.emulation = emulation;
        this.computeShare = computeShare;
    }

    @Override
    public int index() {
        return real.index();
    }

    @Override
    public int stages() {
        return real.stages();
    }

    @Override
    public List<ParameterRange> parameters() {
        return real.parameters();
    }

    @Override
    public int inputWidth() {
        return real.inputWidth();
    }

    @Override
    public int outputWidth() {
        return real.outputWidth();
    }

    @Override
    public long parameterCount() {
        return real.parameterCount();
    }

    @Override
    public long multiplyAdds() {
        return real.multiplyAdds();
    }

    @Override
    public StagePass start(final float[] params, final long seed, final long clock) {
        return new Pass(real.start(params, seed, clock), clock);
    }

    /** One clock's pass of the real stage, each step padded to its emulated cost. */
    private final class Pass implements StagePass {

        private final StagePass real;
        private final long clock;
        private final Map<Integer, Integer> samples = new HashMap<>();

        Pass(final StagePass real, final long clock) {
            this.real = real;
            this.clock = clock;
        }

        @Override
        public float[][] forward(final int micro, final Dataset data, final int[] indices, final float[][] in) {
            samples.put(micro, indices.length);
            final long start = System.nanoTime();
            final float[][] out = real.forward(micro, data, indices, in);
            pad(start, indices.length, computeShare * FORWARD_PART);
            return out;
        }

        @Override
        public double loss(final int micro) {
            return real.loss(micro);
        }

        @Override
        public float[][] backward(final int micro, final float[][] outGradient) {
            final long start = System.nanoTime();
            final float[][] inGradient = real.backward(micro, outGradient);
            pad(start, samples.get(micro), computeShare * (1 - FORWARD_PART));
            return inGradient;
        }

        @Override
        public void addTo(final double[] gradientSum) {
            real.addTo(gradientSum);
        }

        /** Sleeps until the step begun at {@code startNanos} has taken what the emulation says it costs. */
        private void pad(final long startNanos, final int count, final double costFraction) {
            final double realMs = (System.nanoTime() - startNanos) / 1e6;
            final long padNanos = (long) ((emulation.targetMs(realMs, count, clock, 1, costFraction) - realMs) * 1e6);
            if (padNanos > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(padNanos);
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
