package io.paramhub.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One policy's run: its policy, the figures computed from it and the iterations they came from; with several
 * aggregator instances, where the shards ran ({@code servers}, else null).
 */
record PolicyRun(
        Policy policy,
        int staleness,
        PolicyOutcome outcome,
        List<IterationRecord> iterations,
        double wallSeconds,
        ObjectNode servers) {}
