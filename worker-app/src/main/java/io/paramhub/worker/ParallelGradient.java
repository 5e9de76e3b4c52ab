package io.paramhub.worker;

import io.paramhub.ml.Dataset;
import io.paramhub.ml.Model;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Computes a worker's gradient sum with a pool of compute threads: the samples are cut into one
 * contiguous chunk per thread, each summed on its own, and the chunk sums are added in chunk order,
 * so the result depends on the thread count but never on scheduling. The pool can be resized between
 * iterations, as the orchestrator's commands ask.
 */
public final class ParallelGradient implements AutoCloseable {

    private ExecutorService pool;
    private int threads;

    public ParallelGradient(final int threads) {
        resize(threads);
    }

    public int threads() {
        return threads;
    }

    /** Uses {@code count} threads from the next computation on. */
    public void resize(final int count) {
        if (count < 1) {
            throw new IllegalArgumentException("threads must be >= 1, not " + count);
        }
        if (count == threads) {
            return;
        }
        close();
        threads = count;
        pool = count == 1
                ? null
                : Executors.newFixedThreadPool(count, runnable -> {
                    final Thread thread = new Thread(runnable, "gradient-compute");
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /**
     * Adds to {@code gradientSum} the gradient summed over {@code samples} for clock {@code clock} of a
     * job seeded {@code seed} (which draw the training-time randomness, such as dropout masks); returns
     * the summed loss.
     */
    public double accumulate(
            final Model model,
            final float[] params,
            final Dataset data,
            final int[] samples,
            final double[] gradientSum,
            final long seed,
            final long clock) {
        if (pool == null || samples.length < threads) {
            return model.accumulateGradient(params, data, samples, gradientSum, seed, clock);
        }
        final List<Future<double[]>> parts = new ArrayList<>(threads);
        final double[] losses = new double[threads];
        for (int t = 0; t < threads; t++) {
            final int chunk = t;
            final int[] slice =
                    Arrays.copyOfRange(samples, samples.length * t / threads, samples.length * (t + 1) / threads);
            parts.add(pool.submit(() -> {
                final double[] part = new double[gradientSum.length];
                losses[chunk] = model.accumulateGradient(params, data, slice, part, seed, clock);
                return part;
            }));
        }
        double loss = 0;
        try {
            for (int t = 0; t < threads; t++) {
                final double[] part = parts.get(t).get();
                for (int i = 0; i < part.length; i++) {
                    gradientSum[i] += part[i];
                }
                loss += losses[t];
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while computing a gradient", e);
        } catch (final ExecutionException e) {
            throw new IllegalStateException(
                    "gradient computation failed: " + e.getCause().getMessage(), e.getCause());
        }
        return loss;
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdownNow();
            pool = null;
        }
    }
}
