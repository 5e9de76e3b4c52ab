package io.paramhub.local.bench;

import java.util.List;

/** One policy's run: its policy, the figures computed from it and the iterations they came from. */
record PolicyRun(
        Policy policy, int staleness, PolicyOutcome outcome, List<IterationRecord> iterations, double wallSeconds) {}
