package io.paramhub.cli.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * How many processes of each kind a chaos run starts: brokers, aggregators and one process per worker of each job
 * (named after its job, e.g. {@code chaos-ssp/worker-1}); one registry and one orchestrator.
 *
 * @param brokers      brokers, numbered from 1
 * @param aggregators  aggregator processes
 * @param workers      every job's worker processes, in the order a {@code WORKER_KILL}'s target counts them
 */
record ChaosTopology(int brokers, int aggregators, List<WorkerTarget> workers) {

    /**
     * One worker process a {@code WORKER_KILL} can hit: its name, its job's session timeout, and whether a kill
     * may keep it down past that timeout (the SSP and staged jobs', whose live set may change) or must bring it
     * back well within it (the BSP job's, whose model must stay bit-identical to the reference).
     */
    record WorkerTarget(String name, String job, long sessionTimeoutMs, boolean mayOutliveSession) {}

    ChaosTopology {
        workers = List.copyOf(workers);
    }

    /** The run the issue asks for: three brokers, two aggregators and every worker of {@code jobs}. */
    static ChaosTopology of(final List<ChaosJob> jobs) {
        final List<WorkerTarget> workers = new ArrayList<>();
        for (final ChaosJob job : jobs) {
            for (int i = 0; i < job.workers(); i++) {
                workers.add(new WorkerTarget(
                        job.workerName(i),
                        job.name(),
                        job.spec().getSessionTimeoutMs(),
                        job.kind() != ChaosJob.Kind.BSP));
            }
        }
        return new ChaosTopology(3, 2, workers);
    }

    /** How many targets a fault of {@code kind} can choose from. */
    int targets(final FaultKind kind) {
        return switch (kind) {
            case AGGREGATOR_KILL, AGGREGATOR_PAUSE -> aggregators;
            case WORKER_KILL -> workers.size();
            case BROKER_KILL -> brokers;
            case ORCHESTRATOR_KILL, REGISTRY_KILL -> 1;
        };
    }

    /** The process a fault of {@code kind} on {@code target} hits, as the cluster names it. */
    String targetName(final FaultKind kind, final int target) {
        return switch (kind) {
            case AGGREGATOR_KILL, AGGREGATOR_PAUSE -> "aggregator-" + target;
            case WORKER_KILL -> workers.get(target).name();
            // brokers are numbered from 1, as paramhub up numbers them
            case BROKER_KILL -> "broker-" + (target + 1);
            case ORCHESTRATOR_KILL -> "orchestrator";
            case REGISTRY_KILL -> "registry";
        };
    }
}
