package io.paramhub.launcher;

import io.paramhub.topology.jobs.JobRecipe;
import io.paramhub.topology.jobs.JobSettings;
import io.paramhub.topology.jobs.JobSpecs;
import picocli.CommandLine.Option;

/**
 * How a job trains and synchronises (a picocli mixin): optimizer, schedule, sync mode, server-side staleness,
 * session timeout, gradient encoding, pipelined BSP and pipeline stages. Taken by {@code paramhub demo} and
 * {@code paramhub jobs submit} ({@code paramhub-submit}), so that both name, parse and describe them alike; each is
 * null when not given, and {@link JobRecipe} then applies its default, which the description states.
 */
public final class JobRecipeOptions {

    @Option(
            names = "--optimizer",
            description = "sgd (with --momentum) or adam (beta1 0.9, beta2 0.999, epsilon 1e-8) (default: adam for "
                    + "mlp and cnn, sgd for the others).")
    private String optimizer;

    @Option(
            names = "--lr-schedule",
            description = "constant, or cosine: the rate falls from --lr to 0 along half a cosine over the job's "
                    + "epochs x floor(training samples / batch) clocks (from a topic: floor(E / batch) for the E "
                    + "examples of --max-examples or, with --until-end, before the end offsets; refused for a topic "
                    + "job without either, which has no end) (default: cosine for mlp and cnn, constant for the "
                    + "others).")
    private String schedule;

    @Option(names = "--sync", description = "bsp, ssp (bounded staleness, see --staleness) or asp (default: bsp).")
    private String sync;

    @Option(
            names = "--max-staleness",
            description = "Server-side bound in model versions; staler gradients go to dead-letters as STALE. "
                    + "-1: 0 for bsp, (2s+2) x workers for ssp, none for asp (default: "
                    + JobRecipe.DEFAULT_MAX_STALENESS + ").")
    private Long maxStaleness;

    @Option(
            names = "--session-timeout-ms",
            description = "A worker silent this long leaves the live set (default: "
                    + JobRecipe.DEFAULT_SESSION_TIMEOUT_MS + ").")
    private Long sessionTimeoutMs;

    @Option(
            names = "--gradient-encoding",
            description = "How workers ship gradients: float32 (exact) or bfloat16 (half the bytes, rounded with "
                    + "error feedback; the model is no longer bit-identical to the in-process run) (default: "
                    + "float32).")
    private String gradientEncoding;

    @Option(
            names = "--pipeline-depth",
            description = "BSP only: compute clock c on model version c - D, so that the next clock's compute overlaps "
                    + "this one's round trip; deterministic, but a different model from plain BSP's (default: 0, "
                    + "plain BSP; at most " + JobSpecs.MAX_PIPELINE_DEPTH + ").")
    private Integer pipelineDepth;

    @Option(
            names = "--stages",
            description = "Pipeline stages per data-parallel replica (hybrid data and model parallel, BSP only): "
                    + "--workers must be a multiple; worker w computes stage w %% S of replica w / S and holds only "
                    + "that stage's parameters; activations travel on their own topics. mlp is cut between layers, "
                    + "cnn through its dense hidden layer (docs/models.md) (default: 1, every worker computes the "
                    + "whole model).")
    private Integer stages;

    @Option(
            names = "--micro-batches",
            description = "With --stages > 1: at most how many micro-batches a replica cuts its share of each batch "
                    + "into, pipelined through the stages; each a whole number of the model's blocks (32 samples for "
                    + "mlp and cnn), so that the gradients are the data-parallel ones (bit for bit for mlp, to float "
                    + "rounding for cnn) (default: " + JobRecipe.DEFAULT_MICRO_BATCHES + ").")
    private Integer microBatches;

    /**
     * {@code settings} with what these options chose.
     *
     * @throws IllegalArgumentException naming the option whose value is not one it takes
     */
    public JobSettings addTo(final JobSettings settings) {
        return settings.optimizer(JobSettings.optimizer(optimizer))
                .schedule(JobSettings.schedule(schedule))
                .sync(JobSettings.sync(sync))
                .maxStaleness(maxStaleness)
                .sessionTimeoutMs(sessionTimeoutMs)
                .encoding(JobSettings.encoding(gradientEncoding))
                .pipelineDepth(pipelineDepth)
                .stages(stages)
                .microBatches(microBatches);
    }

    /** {@code --stages}, or 1. */
    public int stages() {
        return stages == null ? 1 : stages;
    }
}
