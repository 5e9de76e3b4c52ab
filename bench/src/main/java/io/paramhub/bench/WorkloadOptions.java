package io.paramhub.bench;

import picocli.CommandLine.Option;

/** The options of a bench's job that {@code round-cost} and {@code hybrid} share (a picocli mixin). */
public final class WorkloadOptions {

    @Option(names = "--workers", defaultValue = "4", description = "Workers (default: ${DEFAULT-VALUE}).")
    private int workers;

    @Option(names = "--batch", defaultValue = "128", description = "Global batch (default: ${DEFAULT-VALUE}).")
    private int batch;

    @Option(
            names = "--seed",
            defaultValue = "42",
            description = "Seed of initial parameters and batches (default: ${DEFAULT-VALUE}).")
    private long seed;

    public int workers() {
        return workers;
    }

    public int batch() {
        return batch;
    }

    public long seed() {
        return seed;
    }
}
