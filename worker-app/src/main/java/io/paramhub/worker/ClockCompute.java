package io.paramhub.worker;

import io.paramhub.topology.client.ModelView;

/**
 * A worker's part of one clock on the model it waited for: its share of the batch, its gradient. Chosen once
 * per job ({@link ClockComputes}): the whole model on a pool of threads, or one pipeline stage; emulated
 * compute cost, when asked for, is a decorator around either.
 */
interface ClockCompute extends AutoCloseable {

    /**
     * Computes {@code clock} on {@code params}, the model {@code model} assembled; null when the worker was
     * stopped while waiting.
     */
    ClockWork compute(long clock, float[] params, ModelView model);

    /** The clock a restarted worker resumes at, as far as its input knows (a topic-mode worker's); 0 otherwise. */
    default long resumeClock() {
        return 0;
    }

    @Override
    void close();
}
