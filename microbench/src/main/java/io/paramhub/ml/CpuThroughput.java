package io.paramhub.ml;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * Samples per CPU-second of each model's gradient, on one thread: the per-core figure that a shared,
 * overloaded machine's wall-clock throughput (JMH's) hides. Warm-up (half the time) and measurement
 * are counted in the thread's CPU time, so a starved thread still gets its JIT warm-up. Run with
 * {@code java -cp microbench/target/benchmarks.jar io.paramhub.ml.CpuThroughput [seconds] [kinds...]}.
 */
public final class CpuThroughput {

    private CpuThroughput() {}

    public static void main(final String[] args) {
        final long seconds = args.length > 0 ? Long.parseLong(args[0]) : 20;
        final String[] kinds =
                args.length > 1 ? Arrays.copyOfRange(args, 1, args.length) : new String[] {"softmax", "mlp", "cnn"};
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final Dataset data = BenchmarkData.trainingSet();
        final int[] samples = BenchmarkData.samples(data, ModelGradientBenchmark.CHUNK);
        for (final String kind : kinds) {
            final Model model = Models.create(kind, data.features(), data.classes());
            final float[] params = model.initialParameters(42);
            final double[] gradient = new double[model.parameterCount()];
            final long warmUpStart = threads.getCurrentThreadCpuTime();
            while (threads.getCurrentThreadCpuTime() - warmUpStart < seconds / 2 * 1_000_000_000L) {
                model.accumulateGradient(params, data, samples, gradient);
            }
            final long wallStart = System.nanoTime();
            final long cpuStart = threads.getCurrentThreadCpuTime();
            long calls = 0;
            while (threads.getCurrentThreadCpuTime() - cpuStart < seconds * 1_000_000_000L) {
                model.accumulateGradient(params, data, samples, gradient);
                calls++;
            }
            final double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9;
            final double wallSeconds = (System.nanoTime() - wallStart) / 1e9;
            System.out.printf(
                    Locale.ROOT,
                    "%-8s %9.0f samples per CPU-second  %9.0f samples per wall-second  "
                            + "(%d x %d samples, %.1f CPU s of %.1f wall s)%n",
                    kind,
                    calls * samples.length / cpuSeconds,
                    calls * samples.length / wallSeconds,
                    calls,
                    samples.length,
                    cpuSeconds,
                    wallSeconds);
        }
    }
}
