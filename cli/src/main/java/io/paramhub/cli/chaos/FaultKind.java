package io.paramhub.cli.chaos;

/** The faults the nemesis injects, each on one process of the chaos cluster. */
enum FaultKind {
    /** SIGKILL one of the two aggregators, then start it again. */
    AGGREGATOR_KILL,
    /** SIGSTOP one aggregator, SIGCONT it after the hold: a zombie that wakes up fenced or not. */
    AGGREGATOR_PAUSE,
    /** SIGKILL one worker process, then start it again within the job's session timeout. */
    WORKER_KILL,
    /** SIGKILL one broker, start it again after the hold, wait until every replica is back in sync. */
    BROKER_KILL,
    /** SIGKILL the orchestrator, then start it again. */
    ORCHESTRATOR_KILL,
    /** SIGKILL the schema registry, then start it again on its port. */
    REGISTRY_KILL
}
