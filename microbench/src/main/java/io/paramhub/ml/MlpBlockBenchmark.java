package io.paramhub.ml;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How many samples the MLP pushes through each weight row at a time: 1 (a plain per-sample
 * forward and backward pass, which streams the 0.8 MB first-layer matrix from memory for every
 * sample) against blocks of 8, 32 and 64, on a chunk of 64 samples.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class MlpBlockBenchmark {

    @Param({"1", "8", "32", "64"})
    public int block;

    private Model model;
    private Dataset data;
    private float[] params;
    private int[] samples;
    private double[] gradient;

    @Setup
    public void setUp() {
        data = BenchmarkData.trainingSet();
        model = new Mlp(data.features(), Mlp.DEFAULT_HIDDEN, data.classes(), 0, block);
        params = model.initialParameters(42);
        samples = BenchmarkData.samples(data, 64);
        gradient = new double[model.parameterCount()];
    }

    @Benchmark
    public double gradientOf64Samples() {
        return model.accumulateGradient(params, data, samples, gradient);
    }
}
