package io.paramhub.ml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * In-process training with no Kafka, the baseline a Kafka run is compared against.
 *
 * <p>{@link #trainSharded} does exactly what BSP workers and per-shard aggregators do: each worker
 * sums the gradient over its round-robin share in double and ships it as float32; each shard sums
 * the workers' slices in worker order, divides by the total count and applies the optimizer with
 * its own state. {@link #trainUnsharded} is plain single-process mini-batch training on the same
 * batches, which the sharded run matches up to float rounding.
 */
public final class ReferenceTrainer {

    private ReferenceTrainer() {}

    /** What {@link #trainSharded} reports after each clock. */
    @FunctionalInterface
    public interface ClockListener {
        /**
         * @param params the parameters after the clock's update (owned by the trainer; copy to keep)
         * @param loss   the clock's loss summed over its samples
         */
        void afterClock(long clock, float[] params, double loss);
    }

    /**
     * Trains for {@code iterations} BSP clocks with {@code workers} workers and a model cut by
     * {@code layout}.
     *
     * @return the final parameters
     */
    public static float[] trainSharded(
            final Model model,
            final Dataset train,
            final BatchPlan plan,
            final Optimizer optimizer,
            final ShardLayout layout,
            final int workers,
            final long iterations,
            final long seed) {
        return trainSharded(
                model, train, plan, optimizer, LearningRateSchedule.constant(), layout, workers, iterations, seed);
    }

    /**
     * {@link #trainSharded(Model, Dataset, BatchPlan, Optimizer, ShardLayout, int, long, long)} with the
     * learning rate of clock {@code c} scaled by {@code schedule.factor(c)}, as the aggregator does.
     *
     * @return the final parameters
     */
    public static float[] trainSharded(
            final Model model,
            final Dataset train,
            final BatchPlan plan,
            final Optimizer optimizer,
            final LearningRateSchedule schedule,
            final ShardLayout layout,
            final int workers,
            final long iterations,
            final long seed) {
        return trainSharded(
                model,
                train,
                plan,
                optimizer,
                schedule,
                layout,
                workers,
                iterations,
                seed,
                BspVariant.PLAIN,
                Runnable::run,
                (clock, params, loss) -> {});
    }

    /**
     * The same, run as {@code variant} says (each worker shipping its gradient in the variant's precision,
     * with its own rounding state as each worker process keeps one, and clock c computed on the parameters
     * of version {@link BspVariant#baseVersion}(c)), the workers' gradients of a clock computed on
     * {@code compute} (in parallel if it has threads; summed in worker order all the same, so the result does
     * not depend on it), and {@code listener} told after every clock.
     *
     * @return the final parameters
     */
    public static float[] trainSharded(
            final Model model,
            final Dataset train,
            final BatchPlan plan,
            final Optimizer optimizer,
            final LearningRateSchedule schedule,
            final ShardLayout layout,
            final int workers,
            final long iterations,
            final long seed,
            final BspVariant variant,
            final Executor compute,
            final ClockListener listener) {
        requireCommon(model, train, plan, iterations);
        return trainReplicas(
                model,
                ClockShares.roundRobin(plan, workers),
                optimizer,
                schedule,
                layout,
                workers,
                iterations,
                seed,
                variant,
                compute,
                listener,
                (params, share, clock) -> workerGradient(model, params, train, share, seed, clock));
    }

    /**
     * A hybrid data and model parallel run in one process: {@code replicas} data-parallel replicas, each the
     * model cut into {@code stages} pipeline stages ({@link PipelineModel#stage}) that compute the replica's
     * round-robin share of each clock's batch in at most {@code microBatches} micro-batches
     * ({@link MicroBatches}); each stage's parameter gradients go to the shards as a worker's would, and the
     * shards sum the replicas' in replica order, as {@link #trainSharded} sums workers'. So the run is
     * {@link #trainSharded} with {@code replicas} workers, up to the summation order a cut changes (none for
     * the MLP; the CNN's features gradient, see {@link PipelineModel}).
     *
     * @return the final parameters
     */
    public static float[] trainHybrid(
            final PipelineModel model,
            final Dataset train,
            final BatchPlan plan,
            final Optimizer optimizer,
            final LearningRateSchedule schedule,
            final ShardLayout layout,
            final int replicas,
            final int stages,
            final int microBatches,
            final long iterations,
            final long seed,
            final BspVariant variant,
            final Executor compute,
            final ClockListener listener) {
        if (stages < 1 || stages > model.maxStages()) {
            throw new IllegalArgumentException(
                    model.kind() + " can be cut into 1 to " + model.maxStages() + " stages, not " + stages);
        }
        if (microBatches < 1) {
            throw new IllegalArgumentException("need >= 1 micro-batch, got " + microBatches);
        }
        requireCommon(model, train, plan, iterations);
        return trainReplicas(
                model,
                ClockShares.roundRobin(plan, replicas),
                optimizer,
                schedule,
                layout,
                replicas,
                iterations,
                seed,
                variant,
                compute,
                listener,
                (params, share, clock) -> {
                    final double[] sum = new double[model.parameterCount()];
                    final PipelineGradient.Result result = PipelineGradient.accumulate(
                            model,
                            stages,
                            params,
                            train,
                            MicroBatches.split(share, microBatches, model.block()),
                            sum,
                            seed,
                            clock);
                    return new WorkerGradient(toFloat(sum), result.loss());
                });
    }

    /** Each worker's samples of each clock. */
    @FunctionalInterface
    private interface ClockShares {
        int[][] of(long clock);

        /** The round-robin shares of {@code plan}'s batches among {@code workers}, as workers take them. */
        static ClockShares roundRobin(final BatchPlan plan, final int workers) {
            return clock -> {
                final int[] batch = plan.batch(clock);
                final int[][] shares = new int[workers][];
                for (int w = 0; w < workers; w++) {
                    shares[w] = BatchPlan.roundRobinShare(batch, w, workers);
                }
                return shares;
            };
        }
    }

    /**
     * A BSP run in one process over recorded shares: at clock c, worker w's gradient over the samples
     * {@code shares.get(c)[w]} of {@code train} (those a topic-mode worker took, as its gradient's offset ranges
     * say), summed and applied as {@link #trainSharded} does.
     *
     * @return the final parameters
     */
    public static float[] trainRecorded(
            final Model model,
            final Dataset train,
            final List<int[][]> shares,
            final Optimizer optimizer,
            final LearningRateSchedule schedule,
            final ShardLayout layout,
            final long seed) {
        final int workers = shares.isEmpty() ? 1 : shares.get(0).length;
        return trainReplicas(
                model,
                clock -> shares.get((int) clock),
                optimizer,
                schedule,
                layout,
                workers,
                shares.size(),
                seed,
                BspVariant.PLAIN,
                Runnable::run,
                (clock, params, loss) -> {},
                (params, share, clock) -> workerGradient(model, params, train, share, seed, clock));
    }

    /** How one worker (or one replica's stages) computes its share's gradient on the wire. */
    @FunctionalInterface
    private interface ShareGradient {
        WorkerGradient compute(float[] params, int[] share, long clock);
    }

    private static float[] trainReplicas(
            final Model model,
            final ClockShares shares,
            final Optimizer optimizer,
            final LearningRateSchedule schedule,
            final ShardLayout layout,
            final int workers,
            final long iterations,
            final long seed,
            final BspVariant variant,
            final Executor compute,
            final ClockListener listener,
            final ShareGradient gradientOf) {
        if (layout.parameters() != model.parameterCount()) {
            throw new IllegalArgumentException(
                    "layout of " + layout.parameters() + " parameters for a model of " + model.parameterCount());
        }
        if (workers < 1) {
            throw new IllegalArgumentException("need >= 1 worker, got " + workers);
        }
        final float[] params = model.initialParameters(seed);
        final float[][][] state = new float[layout.shards()][][];
        final long[] versions = new long[layout.shards()];
        for (int s = 0; s < layout.shards(); s++) {
            state[s] = new float[optimizer.stateSlots()][layout.length(s)];
        }
        final float[][] partials = new float[workers][];
        final int[] counts = new int[workers];
        final GradientRounding[] roundings = new GradientRounding[workers];
        for (int w = 0; w < workers; w++) {
            roundings[w] = variant.precision().rounding(model.parameterCount());
        }
        // the parameters of the last pipelineDepth + 1 versions, version v at index v % (depth + 1)
        final float[][] versionParams = new float[variant.pipelineDepth() + 1][];
        versionParams[0] = params.clone();
        for (long clock = 0; clock < iterations; clock++) {
            final int[][] clockShares = shares.of(clock);
            final long at = clock;
            final float[] base = versionParams[(int) (variant.baseVersion(clock) % versionParams.length)];
            final List<CompletableFuture<WorkerGradient>> gradients = new ArrayList<>(workers);
            for (int w = 0; w < workers; w++) {
                final int[] share = clockShares[w];
                counts[w] = share.length;
                gradients.add(CompletableFuture.supplyAsync(() -> gradientOf.compute(base, share, at), compute));
            }
            double loss = 0;
            for (int w = 0; w < workers; w++) {
                final WorkerGradient gradient = gradients.get(w).join();
                partials[w] = counts[w] > 0 ? roundings[w].round(gradient.wire()) : gradient.wire();
                loss += gradient.loss();
            }
            for (int s = 0; s < layout.shards(); s++) {
                final GradientSum sum = new GradientSum(layout.length(s));
                for (int w = 0; w < workers; w++) {
                    if (counts[w] > 0) {
                        sum.add(layout.slice(partials[w], s), counts[w]);
                    }
                }
                final float[] shard = layout.slice(params, s);
                optimizer.step(shard, sum.mean(), state[s], versions[s] + 1, schedule.factor(clock));
                versions[s]++;
                layout.place(params, s, shard);
            }
            versionParams[(int) ((clock + 1) % versionParams.length)] = params.clone();
            listener.afterClock(clock, params, loss);
        }
        return params;
    }

    /**
     * Trains for {@code iterations} mini-batches of {@code plan}'s batches in one process: the
     * gradient summed in double over the whole batch, its mean, one optimizer step on all parameters.
     *
     * @return the final parameters
     */
    public static float[] trainUnsharded(
            final Model model,
            final Dataset train,
            final BatchPlan plan,
            final Optimizer optimizer,
            final long iterations,
            final long seed) {
        return trainUnsharded(model, train, plan, optimizer, LearningRateSchedule.constant(), iterations, seed);
    }

    /**
     * {@link #trainUnsharded(Model, Dataset, BatchPlan, Optimizer, long, long)} with the learning rate of
     * clock {@code c} scaled by {@code schedule.factor(c)}.
     *
     * @return the final parameters
     */
    public static float[] trainUnsharded(
            final Model model,
            final Dataset train,
            final BatchPlan plan,
            final Optimizer optimizer,
            final LearningRateSchedule schedule,
            final long iterations,
            final long seed) {
        requireCommon(model, train, plan, iterations);
        final float[] params = model.initialParameters(seed);
        final float[][] state = new float[optimizer.stateSlots()][params.length];
        final double[] sum = new double[params.length];
        final float[] mean = new float[params.length];
        for (long clock = 0; clock < iterations; clock++) {
            final int[] batch = plan.batch(clock);
            Arrays.fill(sum, 0);
            model.accumulateGradient(params, train, batch, sum, seed, clock);
            for (int i = 0; i < sum.length; i++) {
                mean[i] = (float) (sum[i] / batch.length);
            }
            optimizer.step(params, mean, state, clock + 1, schedule.factor(clock));
        }
        return params;
    }

    /** A worker's summed gradient over its share, as float32 on the wire, and its summed loss. */
    private record WorkerGradient(float[] wire, double loss) {}

    /** A worker's summed gradient over its share, rounded to float32 as it travels on the wire. */
    private static WorkerGradient workerGradient(
            final Model model,
            final float[] params,
            final Dataset train,
            final int[] share,
            final long seed,
            final long clock) {
        final double[] sum = new double[model.parameterCount()];
        final double loss = model.accumulateGradient(params, train, share, sum, seed, clock);
        return new WorkerGradient(toFloat(sum), loss);
    }

    private static float[] toFloat(final double[] sum) {
        final float[] wire = new float[sum.length];
        for (int i = 0; i < sum.length; i++) {
            wire[i] = (float) sum[i];
        }
        return wire;
    }

    private static void requireCommon(
            final Model model, final Dataset train, final BatchPlan plan, final long iterations) {
        if (plan.datasetSize() != train.size()) {
            throw new IllegalArgumentException(
                    "batch plan over " + plan.datasetSize() + " samples for data set " + train);
        }
        if (train.features() != model.inputs()) {
            throw new IllegalArgumentException("model of " + model.inputs() + " inputs for data set " + train);
        }
        if (iterations < 0) {
            throw new IllegalArgumentException("iterations must be >= 0, got " + iterations);
        }
    }
}
