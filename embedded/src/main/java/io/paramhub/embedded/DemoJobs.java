package io.paramhub.embedded;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.Model;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.TrainingRecipe;
import java.time.Instant;

/**
 * The job {@code paramhub demo} trains for a model when no option says otherwise, so that every command
 * that trains "as the demo does" ({@code demo}, {@code bench --scenario round-cost}) builds the same job.
 */
public final class DemoJobs {

    /** SGD momentum under BSP. */
    public static final double BSP_MOMENTUM = 0.9;
    /** SGD momentum under SSP, ASP and pipelined BSP, whose stale updates already act as momentum. */
    public static final double ASYNC_MOMENTUM = 0.5;
    /** A worker silent this long leaves the live set. */
    public static final long SESSION_TIMEOUT_MS = 10_000;
    /** No server-side staleness bound of its own: 0 for BSP, (2s+2) x workers for SSP, none for ASP. */
    public static final long MAX_STALENESS = -1;

    private DemoJobs() {}

    /**
     * The demo's job for {@code model}: BSP; the model's {@link TrainingRecipe} (optimizer, rate, and its
     * schedule over all of the job's clocks, {@code epochs} x floor({@code trainingSamples} / {@code batch}));
     * momentum {@value #BSP_MOMENTUM}; no server-side staleness bound; a 10 s session timeout;
     * {@code requestedShards} raised as {@link JobSpecs#forModel} says. Override what the user chose, then
     * build.
     */
    public static JobSpec.Builder defaults(
            final Model model,
            final int requestedShards,
            final String job,
            final String dataset,
            final int trainingSamples,
            final int workers,
            final int batch,
            final int epochs,
            final long seed) {
        final TrainingRecipe recipe = TrainingRecipe.forModel(model);
        return TrainingRecipe.withSchedule(
                        JobSpecs.forModel(model, requestedShards), recipe.schedule(), epochs, trainingSamples, batch)
                .setJob(job)
                .setDataset(dataset)
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setMaxStaleness(MAX_STALENESS)
                .setSessionTimeoutMs(SESSION_TIMEOUT_MS)
                .setOptimizer(recipe.optimizer())
                .setLearningRate(recipe.learningRate())
                .setMomentum(BSP_MOMENTUM)
                .setGlobalBatch(batch)
                .setExpectedWorkers(workers)
                .setEpochs(epochs)
                .setSeed(seed)
                .setCreatedAt(Instant.now());
    }
}
