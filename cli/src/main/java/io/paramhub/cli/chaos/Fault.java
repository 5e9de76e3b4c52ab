package io.paramhub.cli.chaos;

/**
 * One fault of a schedule: its kind, which process of that kind ({@code target}, from 0), how many clocks of the
 * job to let pass after the previous fault healed, and how long the fault holds (a pause, or the time a killed
 * process stays down) in milliseconds.
 */
record Fault(FaultKind kind, int target, int afterClocks, long holdMs) {

    Fault {
        if (kind == null || target < 0 || afterClocks < 0 || holdMs < 0) {
            throw new IllegalArgumentException("a fault needs a kind, target >= 0, afterClocks >= 0, holdMs >= 0: "
                    + kind + ", " + target + ", " + afterClocks + ", " + holdMs);
        }
    }

    /** How the summary and the log name it, e.g. {@code BROKER_KILL broker-2 (hold 3000 ms)}. */
    String describe(final ChaosTopology topology) {
        return kind + " " + topology.targetName(kind, target) + " (after " + afterClocks + " clocks, hold " + holdMs
                + " ms)";
    }
}
