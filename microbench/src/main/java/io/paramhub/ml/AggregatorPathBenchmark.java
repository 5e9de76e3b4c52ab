package io.paramhub.ml;

import io.paramhub.schemas.FloatPacking;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
 * What one shard of 65,536 parameters (the most {@link ShardSizing} puts in one record) costs
 * around the network: packing and unpacking a gradient as float32 bytes, summing four workers'
 * gradients, and one SGD-with-momentum and one Adam step.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AggregatorPathBenchmark {

    private static final int LENGTH = 65_536;

    private float[] gradient;
    private double[] gradientSum;
    private ByteBuffer packed;
    private float[] params;
    private float[][] sgdState;
    private float[][] adamState;
    private final Optimizer sgd = Optimizers.sgd(0.05, 0.9);
    private final Optimizer adam = Optimizers.adam(0.001, 0.9, 0.999, 1e-8);
    private long step;

    @Setup
    public void setUp() {
        final Random random = new Random(5);
        gradient = new float[LENGTH];
        gradientSum = new double[LENGTH];
        params = new float[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            gradient[i] = (float) random.nextGaussian();
            gradientSum[i] = gradient[i];
            params[i] = (float) random.nextGaussian();
        }
        packed = FloatPacking.pack(gradient);
        sgdState = new float[sgd.stateSlots()][LENGTH];
        adamState = new float[adam.stateSlots()][LENGTH];
    }

    @Benchmark
    public ByteBuffer packGradient() {
        return FloatPacking.pack(gradientSum);
    }

    @Benchmark
    public float[] unpackGradient() {
        return FloatPacking.unpack(packed.duplicate());
    }

    @Benchmark
    public float[] sumFourWorkers() {
        final GradientSum sum = new GradientSum(LENGTH);
        for (int worker = 0; worker < 4; worker++) {
            sum.add(gradient, 32);
        }
        return sum.mean();
    }

    @Benchmark
    public float[] sgdStep() {
        sgd.step(params, gradient, sgdState, ++step);
        return params;
    }

    @Benchmark
    public float[] adamStep() {
        adam.step(params, gradient, adamState, ++step);
        return params;
    }
}
