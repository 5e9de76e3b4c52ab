package io.paramhub.bench.roundcost;

import io.paramhub.avro.JobSpec;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.BspVariant;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.ReferenceTrainer;
import io.paramhub.topology.jobs.JobSpecs;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The same BSP job in this JVM, without Kafka: {@link ReferenceTrainer#trainSharded} (the loop
 * {@code OfflineTraining} runs) with the job's model, seed, batches, shards, optimizer, learning-rate schedule
 * and workers, the workers' gradients of a clock computed on a pool of threads. That is what the workers and
 * the aggregator's shards compute, so its model after every clock is the Kafka run's, bit for bit. Reads and
 * writes no topic.
 */
final class InProcessRun {

    /**
     * How long the {@code clocks} clocks took ({@code seconds}, the loop only), on how many threads, the final
     * parameters, and the parameters after the first {@code checkpointClocks} clocks.
     */
    record Outcome(
            double seconds,
            int threads,
            long clocks,
            float[] finalParameters,
            long checkpointClocks,
            float[] checkpointParameters) {}

    private InProcessRun() {}

    static Outcome run(
            final JobSpec spec,
            final Dataset train,
            final long clocks,
            final int threads,
            final long checkpointClocks) {
        if (checkpointClocks < 1 || checkpointClocks > clocks) {
            throw new IllegalArgumentException(
                    "the checkpoint must be one of the " + clocks + " clocks, not " + checkpointClocks);
        }
        final BatchPlan plan = new BatchPlan(train.size(), spec.getGlobalBatch(), spec.getSeed());
        final float[][] checkpoint = new float[1][];
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            final long started = System.nanoTime();
            final float[] parameters = ReferenceTrainer.trainSharded(
                    JobSpecs.model(spec),
                    train,
                    plan,
                    JobSpecs.optimizer(spec),
                    JobSpecs.schedule(spec),
                    JobSpecs.layout(spec),
                    spec.getExpectedWorkers(),
                    clocks,
                    spec.getSeed(),
                    BspVariant.PLAIN,
                    pool,
                    (clock, params, loss) -> {
                        if (clock + 1 == checkpointClocks) {
                            checkpoint[0] = params.clone();
                        }
                    });
            final double seconds = (System.nanoTime() - started) / 1e9;
            return new Outcome(seconds, threads, clocks, parameters, checkpointClocks, checkpoint[0]);
        } finally {
            pool.shutdownNow();
        }
    }
}
