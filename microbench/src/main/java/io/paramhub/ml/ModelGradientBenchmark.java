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
 * A worker's hot path: one model's gradient summed over a chunk of 32 Fashion-MNIST samples (a
 * quarter of the demo's global batch of 128), on one thread. Samples per second per core =
 * operations per second x 32.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ModelGradientBenchmark {

    /** Samples per call. */
    public static final int CHUNK = 32;

    @Param({"softmax", "mlp", "cnn", "cnn:5,16,32,128"})
    public String kind;

    private Model model;
    private Dataset data;
    private float[] params;
    private int[] samples;
    private double[] gradient;

    @Setup
    public void setUp() {
        data = BenchmarkData.trainingSet();
        model = Models.create(kind, data.features(), data.classes());
        params = model.initialParameters(42);
        samples = BenchmarkData.samples(data, CHUNK);
        gradient = new double[model.parameterCount()];
    }

    @Benchmark
    public double gradientOfChunk() {
        return model.accumulateGradient(params, data, samples, gradient);
    }
}
