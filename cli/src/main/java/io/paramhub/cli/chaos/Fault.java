package io.paramhub.cli.chaos;

/**
 * One fault of a schedule: its kind, which process of that kind ({@code target}, from 0), how many clocks of the
 * BSP job to let pass after the previous fault healed, how long the fault holds (a pause, or the time a killed
 * process stays down) in milliseconds, and for a worker kill whether that hold outlasts the worker's session
 * timeout (the aggregators then take it for dead and its job's live set changes until it is back). A schedule
 * written before that flag existed reads as false.
 */
record Fault(FaultKind kind, int target, int afterClocks, long holdMs, boolean afterSessionTimeout) {

    Fault {
        if (kind == null || target < 0 || afterClocks < 0 || holdMs < 0) {
            throw new IllegalArgumentException("a fault needs a kind, target >= 0, afterClocks >= 0, holdMs >= 0: "
                    + kind + ", " + target + ", " + afterClocks + ", " + holdMs);
        }
    }

    /** How the summary and the log name it, e.g. {@code BROKER_KILL broker-2 (after 3 clocks, hold 3000 ms)}. */
    String describe(final ChaosTopology topology) {
        return kind + " " + topology.targetName(kind, target) + " (after " + afterClocks + " clocks, hold " + holdMs
                + " ms"
                + (kind == FaultKind.WORKER_KILL
                        ? afterSessionTimeout ? ", back after its session timeout" : ", back within its session timeout"
                        : "")
                + ")";
    }
}
