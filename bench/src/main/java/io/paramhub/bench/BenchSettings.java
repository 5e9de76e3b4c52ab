package io.paramhub.bench;

import io.paramhub.embedded.ServerEmulation;
import io.paramhub.worker.ComputeEmulation;
import java.util.List;
import java.util.Map;

/** Everything one bench run is asked to do, validated. */
record BenchSettings(
        Scenario scenario,
        List<Policy> policies,
        BenchTask task,
        int workers,
        double target,
        long seed,
        int epochs,
        int batch,
        int shards,
        double learningRate,
        double momentum,
        double asyncMomentum,
        int staleness,
        long sampleCostMicros,
        long clocks,
        Map<Integer, ComputeEmulation> emulations,
        double idealSeconds,
        int aggregators,
        ServerEmulation servers) {}
