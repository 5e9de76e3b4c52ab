package io.paramhub.worker;

import io.paramhub.topology.jobs.WorkerIds;
import java.time.Duration;

/**
 * Who a worker is and how patient it is: the job, its index among {@code workers} (its share of
 * each batch is every {@code workers}-th sample from {@code index}), how long it waits for the job
 * and for each model version before giving up, any emulated compute cost, and how many compute
 * threads it starts with.
 */
public record WorkerSettings(
        String job,
        int index,
        int workers,
        Duration jobTimeout,
        Duration modelTimeout,
        ComputeEmulation emulation,
        int threads) {

    /**
     * What a topic-mode worker's transactional id and consumer group start with: {@code <prefix><job>.<worker>}
     * (a secured cluster grants workers these, and only these, by prefix).
     */
    public static final String CLIENT_ID_PREFIX = "paramhub-worker.";

    public WorkerSettings {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be >= 1, not " + workers);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, not " + threads);
        }
        if (index < 0 || index >= workers) {
            throw new IllegalArgumentException("worker index must be in 0.." + (workers - 1) + ", not " + index);
        }
    }

    public static WorkerSettings of(final String job, final int index, final int workers) {
        return new WorkerSettings(
                job, index, workers, Duration.ofSeconds(60), Duration.ofSeconds(60), ComputeEmulation.NONE, 1);
    }

    /** These settings with emulated compute cost and slowdown. */
    public WorkerSettings withEmulation(final ComputeEmulation computeEmulation) {
        return new WorkerSettings(job, index, workers, jobTimeout, modelTimeout, computeEmulation, threads);
    }

    /** These settings with {@code count} compute threads to start with. */
    public WorkerSettings withThreads(final int count) {
        return new WorkerSettings(job, index, workers, jobTimeout, modelTimeout, emulation, count);
    }

    /** The worker's id on every record: {@code worker-<index>}, zero-padded so ids sort like indices. */
    public String workerId() {
        return workerId(index);
    }

    /** The id of the worker with {@code index}, as {@link WorkerIds#of} builds it. */
    public static String workerId(final int index) {
        return WorkerIds.of(index);
    }
}
