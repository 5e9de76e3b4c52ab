package io.paramhub.bench.hybrid;

import java.util.List;
import picocli.CommandLine.Option;

/** The options of {@code paramhub bench --scenario hybrid} that no other scenario takes: the cut of the hybrid run. */
public final class HybridOptions {

    /** The options' names, for refusing them in the other scenarios. */
    public static final List<String> NAMES = List.of("--stages", "--micro-batches");

    @Option(
            names = "--stages",
            description = "hybrid only: pipeline stages of each replica in the hybrid run; --workers must be a "
                    + "multiple of it (default: " + HybridBenchSettings.DEFAULT_STAGES + ").")
    private Integer stages;

    @Option(
            names = "--micro-batches",
            description = "hybrid only: at most how many micro-batches a replica cuts its share of each batch "
                    + "into, pipelined through the stages (default: " + HybridBenchSettings.DEFAULT_MICRO_BATCHES
                    + ").")
    private Integer microBatches;

    public int stages() {
        return stages != null ? stages : HybridBenchSettings.DEFAULT_STAGES;
    }

    public int microBatches() {
        return microBatches != null ? microBatches : HybridBenchSettings.DEFAULT_MICRO_BATCHES;
    }
}
