package io.paramhub.cli.chaos;

/**
 * How many processes of each kind a chaos run starts: brokers, aggregators and worker processes (one worker each);
 * one registry and one orchestrator.
 */
record ChaosTopology(int brokers, int aggregators, int workers) {

    /** The run the issue asks for: three brokers, two aggregators, a two-worker BSP job. */
    static final ChaosTopology STANDARD = new ChaosTopology(3, 2, 2);

    /** How many targets a fault of {@code kind} can choose from. */
    int targets(final FaultKind kind) {
        return switch (kind) {
            case AGGREGATOR_KILL, AGGREGATOR_PAUSE -> aggregators;
            case WORKER_KILL -> workers;
            case BROKER_KILL -> brokers;
            case ORCHESTRATOR_KILL, REGISTRY_KILL -> 1;
        };
    }

    /** The process a fault of {@code kind} on {@code target} hits, as the cluster names it. */
    String targetName(final FaultKind kind, final int target) {
        return switch (kind) {
            case AGGREGATOR_KILL, AGGREGATOR_PAUSE -> "aggregator-" + target;
            case WORKER_KILL -> "worker-" + target;
            // brokers are numbered from 1, as paramhub up numbers them
            case BROKER_KILL -> "broker-" + (target + 1);
            case ORCHESTRATOR_KILL -> "orchestrator";
            case REGISTRY_KILL -> "registry";
        };
    }
}
