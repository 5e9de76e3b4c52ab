package io.paramhub.launcher;

import picocli.CommandLine.Option;

/**
 * The job a command trains or submits (a picocli mixin): passes over the data, global batch, learning rate,
 * momentum, shards, seed and SSP's staleness bound. Taken by {@code paramhub-submit}, {@code paramhub demo}
 * and {@code paramhub bench}.
 *
 * <p>Where those commands agree on a default (seed, batch, staleness) it is the option's own; where they do
 * not, the option is null when not given and each command applies its default: the {@code DEFAULT_*}
 * constants here are those of a job submitted without them ({@code paramhub-submit}), the {@code paramhub}
 * commands derive theirs from the model or task. The descriptions here are {@code paramhub-submit}'s; the
 * {@code paramhub} command gives its own in its resource bundle (see {@link ClusterOptions}).
 */
public final class JobSpecOptions {

    /** Passes over the data of a submitted job. */
    public static final int DEFAULT_EPOCHS = 3;
    /** Parameter shards of a submitted job, at least. */
    public static final int DEFAULT_SHARDS = 4;
    /** Learning rate of a submitted job. */
    public static final double DEFAULT_LEARNING_RATE = 0.01;
    /** SGD momentum of a submitted job. */
    public static final double DEFAULT_MOMENTUM = 0.9;

    @Option(names = "--epochs", description = "Passes over the data (default: " + DEFAULT_EPOCHS + ").")
    private Integer epochs;

    @Option(names = "--batch", defaultValue = "128", description = "Global batch (default: ${DEFAULT-VALUE}).")
    private int batch;

    @Option(
            names = "--shards",
            description = "Parameter shards, at least; raised so that no shard carries more "
                    + "than 256 KiB (default: " + DEFAULT_SHARDS + ").")
    private Integer shards;

    @Option(names = "--staleness", defaultValue = "3", description = "SSP bound (default: ${DEFAULT-VALUE}).")
    private int staleness;

    @Option(names = "--lr", description = "Learning rate (default: " + DEFAULT_LEARNING_RATE + ").")
    private Double learningRate;

    @Option(names = "--momentum", description = "SGD momentum (default: " + DEFAULT_MOMENTUM + ").")
    private Double momentum;

    @Option(names = "--seed", defaultValue = "42", description = "Seed (default: ${DEFAULT-VALUE}).")
    private long seed;

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
