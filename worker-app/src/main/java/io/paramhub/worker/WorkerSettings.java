package io.paramhub.worker;

import java.time.Duration;

/**
 * Who a worker is and how patient it is: the job, its index among {@code workers} (its share of
 * each batch is every {@code workers}-th sample from {@code index}), how long it waits for the job
 * and for each model version before giving up, and any emulated compute cost.
 */
public record WorkerSettings(String job, int index, int workers, Duration jobTimeout, Duration modelTimeout,
                             ComputeEmulation emulation) {

    public WorkerSettings {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be >= 1, not " + workers);
        }
        if (index < 0 || index >= workers) {
            throw new IllegalArgumentException("worker index must be in 0.." + (workers - 1) + ", not " + index);
        }
    }

    public static WorkerSettings of(final String job, final int index, final int workers) {
        return new WorkerSettings(job, index, workers, Duration.ofSeconds(60), Duration.ofSeconds(60),
            ComputeEmulation.NONE);
    }

    /** These settings with emulated compute cost and slowdown. */
    public WorkerSettings withEmulation(final ComputeEmulation computeEmulation) {
        return new WorkerSettings(job, index, workers, jobTimeout, modelTimeout, computeEmulation);
    }

    /** The worker's id on every record: {@code worker-<index>}, zero-padded so ids sort like indices. */
    public String workerId() {
        return String.format("worker-%03d", index);
    }
}
