package io.paramhub.ml;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The networks' hot loop as a whole layer: the default {@code cnn}'s second convolution forward,
 * {@code out[o] = sum_k W[o][k] x[k]} for 64 output channels, 288 patch elements and 196 positions
 * (3.6 M multiply-adds an image), written five ways:
 * <ul>
 *   <li>{@code flatOffsets}: matrices as one flat array each, rows at offsets, one row at a time
 *   ({@link VectorOps#axpy}, as the networks were written first);</li>
 *   <li>{@code rowsOne}: each row its own array indexed from 0 ({@link RowOps#add1});</li>
 *   <li>{@code rowsFour}: the same, four rows a pass ({@link RowOps#addWeighted}, what the networks use);</li>
 *   <li>{@code vectorApiFlatOffsets}, {@code vectorApiFour}: the JDK 17 incubating Vector API on the
 *   flat arrays, one and four rows a pass.</li>
 * </ul>
 * Multiply-adds per second = operations per second x 3,612,672.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class LayerKernelBenchmark {

    static final int OUT = 64;
    static final int PATCH = 288;
    static final int POSITIONS = 196;
    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

    private float[] weights;
    private float[] flatIn;
    private float[] flatOut;
    private float[][] rowsIn;
    private float[][] rowsOut;

    @Setup
    public void setUp() {
        final Random random = new Random(5);
        weights = new float[OUT * PATCH];
        flatIn = new float[PATCH * POSITIONS];
        flatOut = new float[OUT * POSITIONS];
        rowsIn = new float[PATCH][POSITIONS];
        rowsOut = new float[OUT][POSITIONS];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = (float) random.nextGaussian();
        }
        for (int k = 0; k < PATCH; k++) {
            for (int p = 0; p < POSITIONS; p++) {
                flatIn[k * POSITIONS + p] = random.nextFloat();
                rowsIn[k][p] = flatIn[k * POSITIONS + p];
            }
        }
    }

    @Benchmark
    public float[] flatOffsets() {
        for (int o = 0; o < OUT; o++) {
            Arrays.fill(flatOut, o * POSITIONS, (o + 1) * POSITIONS, 0f);
            for (int k = 0; k < PATCH; k++) {
                VectorOps.axpy(weights[o * PATCH + k], flatIn, k * POSITIONS, flatOut, o * POSITIONS, POSITIONS);
            }
        }
        return flatOut;
    }

    @Benchmark
    public float[][] rowsOne() {
        for (int o = 0; o < OUT; o++) {
            Arrays.fill(rowsOut[o], 0f);
            for (int k = 0; k < PATCH; k++) {
                RowOps.add1(weights[o * PATCH + k], rowsIn[k], rowsOut[o], POSITIONS);
            }
        }
        return rowsOut;
    }

    @Benchmark
    public float[][] rowsFour() {
        for (int o = 0; o < OUT; o++) {
            Arrays.fill(rowsOut[o], 0f);
            RowOps.addWeighted(weights, o * PATCH, rowsIn, 0, PATCH, rowsOut[o], POSITIONS);
        }
        return rowsOut;
    }

    @Benchmark
    public float[] vectorApiFlatOffsets() {
        final int bound = SPECIES.loopBound(POSITIONS);
        for (int o = 0; o < OUT; o++) {
            final int target = o * POSITIONS;
            Arrays.fill(flatOut, target, target + POSITIONS, 0f);
            for (int k = 0; k < PATCH; k++) {
                final float a = weights[o * PATCH + k];
                final FloatVector scale = FloatVector.broadcast(SPECIES, a);
                final int source = k * POSITIONS;
                int j = 0;
                for (; j < bound; j += SPECIES.length()) {
                    FloatVector.fromArray(SPECIES, flatIn, source + j)
                            .fma(scale, FloatVector.fromArray(SPECIES, flatOut, target + j))
                            .intoArray(flatOut, target + j);
                }
                for (; j < POSITIONS; j++) {
                    flatOut[target + j] += a * flatIn[source + j];
                }
            }
        }
        return flatOut;
    }

    @Benchmark
    public float[] vectorApiFour() {
        final int bound = SPECIES.loopBound(POSITIONS);
        for (int o = 0; o < OUT; o++) {
            final int target = o * POSITIONS;
            Arrays.fill(flatOut, target, target + POSITIONS, 0f);
            for (int k = 0; k < PATCH; k += 4) {
                final int w = o * PATCH + k;
                final FloatVector a0 = FloatVector.broadcast(SPECIES, weights[w]);
                final FloatVector a1 = FloatVector.broadcast(SPECIES, weights[w + 1]);
                final FloatVector a2 = FloatVector.broadcast(SPECIES, weights[w + 2]);
                final FloatVector a3 = FloatVector.broadcast(SPECIES, weights[w + 3]);
                final int s0 = k * POSITIONS;
                int j = 0;
                for (; j < bound; j += SPECIES.length()) {
                    FloatVector.fromArray(SPECIES, flatIn, s0 + j)
                            .fma(
                                    a0,
                                    FloatVector.fromArray(SPECIES, flatIn, s0 + POSITIONS + j)
                                            .fma(
                                                    a1,
                                                    FloatVector.fromArray(SPECIES, flatIn, s0 + 2 * POSITIONS + j)
                                                            .fma(
                                                                    a2,
                                                                    FloatVector.fromArray(
                                                                                    SPECIES,
                                                                                    flatIn,
                                                                                    s0 + 3 * POSITIONS + j)
                                                                            .fma(
                                                                                    a3,
                                                                                    FloatVector.fromArray(
                                                                                            SPECIES,
                                                                                            flatOut,
                                                                                            target + j)))))
                            .intoArray(flatOut, target + j);
                }
                for (; j < POSITIONS; j++) {
                    flatOut[target + j] += weights[w] * flatIn[s0 + j]
                            + weights[w + 1] * flatIn[s0 + POSITIONS + j]
                            + weights[w + 2] * flatIn[s0 + 2 * POSITIONS + j]
                            + weights[w + 3] * flatIn[s0 + 3 * POSITIONS + j];
                }
            }
        }
        return flatOut;
    }
}
