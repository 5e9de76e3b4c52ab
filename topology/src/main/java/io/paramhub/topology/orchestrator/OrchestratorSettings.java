package io.paramhub.topology.orchestrator;

import io.paramhub.topology.jobs.PlanChecks;

/**
 * How the orchestrator measures speed, finds stragglers and plans.
 *
 * @param window             iterations per worker in the speed window (count-based, sliding)
 * @param stragglerThreshold a worker is a straggler when its speed is below the median by more than
 *                           this fraction (0.2 = 20% below the median)
 * @param minInterval        clocks between two plans; after a first plan, a new one also needs its gain
 *                           to have held in this many consecutive rounds
 * @param minGain            smallest predicted gain, as a fraction of the predicted iteration time
 *                           (max over workers of share / speed), worth a new plan
 * @param loadLever          plan batch shares proportional to speed
 * @param resourceLever      move compute threads to stragglers
 * @param threadBudget       total threads the job's workers may use together; 0 = no spare capacity,
 *                           threads only move from the fastest workers
 * @param maxThreadsPerWorker most threads one worker (node) may get, at most {@link PlanChecks#MAX_THREADS}
 * @param minShare           smallest batch share the load lever gives a worker
 */
public record OrchestratorSettings(
        int window,
        double stragglerThreshold,
        long minInterval,
        double minGain,
        boolean loadLever,
        boolean resourceLever,
        int threadBudget,
        int maxThreadsPerWorker,
        double minShare) {

    public OrchestratorSettings {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1, was " + window);
        }
        if (!(stragglerThreshold > 0 && stragglerThreshold < 1)) {
            throw new IllegalArgumentException("stragglerThreshold must be in (0, 1), was " + stragglerThreshold);
        }
        if (minInterval < 1) {
            throw new IllegalArgumentException("minInterval must be at least 1, was " + minInterval);
        }
        if (!(minGain >= 0 && minGain < 1)) {
            throw new IllegalArgumentException("minGain must be in [0, 1), was " + minGain);
        }
        if (threadBudget < 0 || maxThreadsPerWorker < 1 || maxThreadsPerWorker > PlanChecks.MAX_THREADS) {
            throw new IllegalArgumentException("threadBudget must be >= 0 and maxThreadsPerWorker between 1 and "
                    + PlanChecks.MAX_THREADS + " (what the aggregator and workers accept)");
        }
        if (!(minShare >= 0 && minShare < 1)) {
            throw new IllegalArgumentException("minShare must be in [0, 1), was " + minShare);
        }
    }

    /** Window 3, threshold 20%, interval 5 clocks, gain 5%, both levers on, no spare threads, 8 per worker, share floor 2%. */
    public static OrchestratorSettings defaults() {
        return new OrchestratorSettings(3, 0.2, 5, 0.05, true, true, 0, 8, 0.02);
    }

    /**
     * These settings with both levers off: the orchestrator still measures speeds and flags stragglers
     * (its store, its HTTP endpoint and the dashboard show them) but issues no command, so training runs
     * exactly as without it.
     */
    public OrchestratorSettings observeOnly() {
        return withLoadLever(false).withResourceLever(false);
    }

    /** Whether plans go out as commands: at least one lever is on. */
    public boolean issuesCommands() {
        return loadLever || resourceLever;
    }

    public OrchestratorSettings withWindow(final int value) {
        return new OrchestratorSettings(
                value,
                stragglerThreshold,
                minInterval,
                minGain,
                loadLever,
                resourceLever,
                threadBudget,
                maxThreadsPerWorker,
                minShare);
    }

    public OrchestratorSettings withStragglerThreshold(final double value) {
        return new OrchestratorSettings(
                window,
                value,
                minInterval,
                minGain,
                loadLever,
                resourceLever,
                threadBudget,
                maxThreadsPerWorker,
                minShare);
    }

    public OrchestratorSettings withMinInterval(final long value) {
        return new OrchestratorSettings(
                window,
                stragglerThreshold,
                value,
                minGain,
                loadLever,
                resourceLever,
                threadBudget,
                maxThreadsPerWorker,
                minShare);
    }

    public OrchestratorSettings withMinGain(final double value) {
        return new OrchestratorSettings(
                window,
                stragglerThreshold,
                minInterval,
                value,
                loadLever,
                resourceLever,
                threadBudget,
                maxThreadsPerWorker,
                minShare);
    }

    public OrchestratorSettings withLoadLever(final boolean value) {
        return new OrchestratorSettings(
                window,
                stragglerThreshold,
                minInterval,
                minGain,
                value,
                resourceLever,
                threadBudget,
                maxThreadsPerWorker,
                minShare);
    }

    public OrchestratorSettings withResourceLever(final boolean value) {
        return new OrchestratorSettings(
                window,
                stragglerThreshold,
                minInterval,
                minGain,
                loadLever,
                value,
                threadBudget,
                maxThreadsPerWorker,
                minShare);
    }

    public OrchestratorSettings withThreadBudget(final int value) {
        return new OrchestratorSettings(
                window,
                stragglerThreshold,
                minInterval,
                minGain,
                loadLever,
                resourceLever,
                value,
                maxThreadsPerWorker,
                minShare);
    }

    public OrchestratorSettings withMaxThreadsPerWorker(final int value) {
        return new OrchestratorSettings(
                window,
                stragglerThreshold,
                minInterval,
                minGain,
                loadLever,
                resourceLever,
                threadBudget,
                value,
                minShare);
    }

    public OrchestratorSettings withMinShare(final double value) {
        return new OrchestratorSettings(
                window,
                stragglerThreshold,
                minInterval,
                minGain,
                loadLever,
                resourceLever,
                threadBudget,
                maxThreadsPerWorker,
                value);
    }
}
