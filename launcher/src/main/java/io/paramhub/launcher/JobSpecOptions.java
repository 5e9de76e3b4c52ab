package io.paramhub.launcher;

import io.paramhub.topology.jobs.JobRecipe;
import io.paramhub.topology.jobs.JobSettings;
import picocli.CommandLine.Option;

/**
 * The job a command trains or submits (a picocli mixin): passes over the data, global batch, learning rate,
 * momentum, shards, seed and SSP's staleness bound. Taken by {@code paramhub-submit} ({@code paramhub jobs
 * submit}), {@code paramhub demo} and {@code paramhub bench}.
 *
 * <p>The defaults are {@link JobRecipe}'s; an option whose default depends on the model or the sync mode is null
 * when not given. The descriptions here are {@code paramhub-submit}'s; the {@code paramhub} command gives its own
 * in its resource bundle (see {@link ClusterOptions}).
 */
public final class JobSpecOptions {

    @Option(names = "--epochs", description = "Passes over the data (default: " + JobRecipe.DEFAULT_EPOCHS + ").")
    private Integer epochs;

    @Option(
            names = "--batch",
            defaultValue = "" + JobRecipe.DEFAULT_BATCH,
            description = "Global batch (default: ${DEFAULT-VALUE}).")
    private int batch;

    @Option(
            names = "--shards",
            description = "Parameter shards, at least; raised so that no shard carries more "
                    + "than 256 KiB (default: " + JobRecipe.DEFAULT_SHARDS + ").")
    private Integer shards;

    @Option(
            names = "--staleness",
            defaultValue = "" + JobRecipe.DEFAULT_STALENESS,
            description = "SSP bound (default: ${DEFAULT-VALUE}).")
    private int staleness;

    @Option(
            names = "--lr",
            description = "Learning rate (default: 0.002 for mlp and 0.001 for cnn with Adam, 0.05 with SGD).")
    private Double learningRate;

    @Option(
            names = "--momentum",
            description = "SGD momentum (default: " + JobRecipe.BSP_MOMENTUM + " under plain BSP, "
                    + JobRecipe.ASYNC_MOMENTUM + " under SSP, ASP and pipelined BSP).")
    private Double momentum;

    @Option(
            names = "--seed",
            defaultValue = "" + JobRecipe.DEFAULT_SEED,
            description = "Seed (default: ${DEFAULT-VALUE}).")
    private long seed;

    /** What these options chose, for {@link JobRecipe}. */
    public JobSettings settings() {
        return JobSettings.none()
                .epochs(epochs)
                .batch(batch)
                .shards(shards)
                .staleness(staleness)
                .learningRate(learningRate)
                .momentum(momentum)
                .seed(seed);
    }

    /** {@code --epochs}, or null when not given. */
    public Integer epochs() {
        return epochs;
    }

    public int batch() {
        return batch;
    }

    /** {@code --shards}, or null when not given. */
    public Integer shards() {
        return shards;
    }

    public int staleness() {
        return staleness;
    }

    /** {@code --lr}, or null when not given. */
    public Double learningRate() {
        return learningRate;
    }

    /** {@code --momentum}, or null when not given. */
    public Double momentum() {
        return momentum;
    }

    public long seed() {
        return seed;
    }
}
