package io.paramhub.cli.chaos;

/**
 * What became of one scheduled fault: the clock of the job it was injected at (-1 if never), how long after the
 * run's start, and how long the cluster took to heal (the process back, the job past that clock again), -1 if it
 * did not heal in time.
 */
record InjectedFault(Fault fault, long clock, long atMs, long healMs) {

    boolean injected() {
        return clock >= 0;
    }

    boolean healed() {
        return healMs >= 0;
    }
}
