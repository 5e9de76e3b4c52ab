package io.paramhub.cli;

import io.paramhub.ml.Model;
import io.paramhub.ml.PipelineModel;
import io.paramhub.topology.jobs.StagePlan;

/** {@code paramhub demo --stages}: the shards a model cut into pipeline stages needs at least. */
final class DemoStages {

    private DemoStages() {}

    /**
     * With {@code stages} > 1, the shards the stages of {@code kind} need at least (none may hold two stages'
     * parameters); else 1.
     *
     * @throws IllegalArgumentException when the model cannot be cut so, or {@code workers} is not a multiple of
     *     {@code stages}
     */
    static int minimumShards(final Model kind, final int stages, final int workers) {
        if (stages <= 1) {
            return 1;
        }
        if (!(kind instanceof PipelineModel pipeline)) {
            throw new IllegalArgumentException(
                    "--stages " + stages + ": model " + kind.kind() + " cannot be cut into pipeline stages");
        }
        if (stages > pipeline.maxStages()) {
            throw new IllegalArgumentException("--stages " + stages + ": model " + kind.kind()
                    + " can be cut into 1 to " + pipeline.maxStages() + " stages");
        }
        if (workers % stages != 0) {
            throw new IllegalArgumentException(
                    "--workers (" + workers + ") must be a multiple of --stages (" + stages + ")");
        }
        return StagePlan.minimumShards(pipeline, stages);
    }
}
