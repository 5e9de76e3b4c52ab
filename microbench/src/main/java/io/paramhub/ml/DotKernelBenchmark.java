package io.paramhub.ml;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
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
 * The two kernels every layer reduces to, at the lengths the models use (784 pixels, 576 and 64
 * convolution positions): ParamHub's plain-array float kernels ({@link VectorOps}), a dot product
 * accumulating in double (as {@link SoftmaxRegression} does), and the same with the JDK 17
 * incubating Vector API, which needs {@code --add-modules jdk.incubator.vector} at compile and run
 * time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class DotKernelBenchmark {

    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

    @Param({"64", "576", "784"})
    public int length;

    private float[] a;
    private float[] b;
    private float[] target;

    @Setup
    public void setUp() {
        final Random random = new Random(3);
        a = new float[length];
        b = new float[length];
        target = new float[length];
        for (int i = 0; i < length; i++) {
            a[i] = random.nextFloat();
            b[i] = random.nextFloat();
        }
    }

    @Benchmark
    public float dotPlainFloat() {
        return VectorOps.dot(a, 0, b, 0, length);
    }

    @Benchmark
    public double dotPlainDouble() {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int j = 0;
        for (; j + 3 < length; j += 4) {
            s0 += (double) a[j] * b[j];
            s1 += (double) a[j + 1] * b[j + 1];
            s2 += (double) a[j + 2] * b[j + 2];
            s3 += (double) a[j + 3] * b[j + 3];
        }
        for (; j < length; j++) {
            s0 += (double) a[j] * b[j];
        }
        return (s0 + s1) + (s2 + s3);
    }

    @Benchmark
    public float dotVectorApi() {
        FloatVector sum = FloatVector.zero(SPECIES);
        int j = 0;
        for (; j < SPECIES.loopBound(length); j += SPECIES.length()) {
            sum = FloatVector.fromArray(SPECIES, a, j).fma(FloatVector.fromArray(SPECIES, b, j), sum);
        }
        float rest = sum.reduceLanes(VectorOperators.ADD);
        for (; j < length; j++) {
            rest += a[j] * b[j];
        }
        return rest;
    }

    @Benchmark
    public float[] axpyPlain() {
        VectorOps.axpy(1e-3f, a, 0, target, 0, length);
        return target;
    }

    @Benchmark
    public float[] axpyVectorApi() {
        final FloatVector scale = FloatVector.broadcast(SPECIES, 1e-3f);
        int j = 0;
        for (; j < SPECIES.loopBound(length); j += SPECIES.length()) {
            FloatVector.fromArray(SPECIES, a, j)
                    .fma(scale, FloatVector.fromArray(SPECIES, target, j))
                    .intoArray(target, j);
        }
        for (; j < length; j++) {
            target[j] += 1e-3f * a[j];
        }
        return target;
    }
}
