package io.paramhub.topology.jobs;

import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.BspVariant;
import io.paramhub.ml.GradientPrecision;
import io.paramhub.ml.LearningRateSchedule;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import io.paramhub.ml.Optimizer;
import io.paramhub.ml.Optimizers;
import io.paramhub.ml.PipelineModel;
import io.paramhub.ml.ShardLayout;
import io.paramhub.ml.ShardSizing;
import io.paramhub.ml.TopicSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Checks a {@link JobSpec} and derives from it the model, shard layout and optimizer it names. A spec is
 * checked against upper bounds too, since anyone who can write to {@code jobs} can ask every worker and
 * aggregator for memory and files: those below, and the data set's ({@link DatasetChecks}).
 */
public final class JobSpecs {

    /** Deepest pipelined BSP a job may ask for: each level is one more version of staleness. */
    public static final int MAX_PIPELINE_DEPTH = 4;

    /** Model inputs: 2^20, a 1024 x 1024 image. */
    public static final int MAX_INPUTS = 1 << 20;
    /** Model outputs (classes): 2^16. */
    public static final int MAX_OUTPUTS = 1 << 16;
    /** Parameters: 2^26, 256 MiB of float32, which an aggregator holds with its optimizer's moments. */
    public static final int MAX_PARAMETERS = 1 << 26;
    /** Shards: 4096, four times the fewest that {@link ShardSizing} cuts {@link #MAX_PARAMETERS} into. */
    public static final int MAX_SHARDS = 4096;
    /** Workers: 1000, the ids {@code worker-000} to {@code worker-999} ({@link WorkerIds}). */
    public static final int MAX_WORKERS = 1000;
    /** Samples a clock: 2^20. */
    public static final int MAX_GLOBAL_BATCH = 1 << 20;
    /** Passes over the training set: 10,000. */
    public static final int MAX_EPOCHS = 10_000;
    /** SSP staleness: 10,000 clocks. */
    public static final int MAX_STALENESS = 10_000;
    /** Session timeout: 1 hour. */
    public static final long MAX_SESSION_TIMEOUT_MS = 3_600_000;

    private static final Pattern JOB_NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

    private JobSpecs() {}

    /**
     * A job builder with the model's fields set: its kind, inputs, outputs and parameter count, and
     * {@code requestedShards} raised as {@link ShardSizing} says, so that no shard's record outgrows
     * what Kafka accepts by default. Every way of making a job starts here.
     */
    public static JobSpec.Builder forModel(final Model model, final int requestedShards) {
        return JobSpec.newBuilder()
                .setModel(model.kind())
                .setInputs(model.inputs())
                .setOutputs(model.outputs())
                .setParameters(model.parameterCount())
                .setShards(ShardSizing.shards(model.parameterCount(), requestedShards));
    }

    /**
     * What is wrong with {@code spec}, one sentence a problem; empty when it can run. Every file of its data set
     * must lie under {@link DatasetChecks#defaultRoots()}.
     */
    public static List<String> problems(final JobSpec spec) {
        return problems(spec, DatasetChecks.defaultRoots());
    }

    /** As {@link #problems(JobSpec)}, with the data set's files allowed under {@code datasetRoots}. */
    public static List<String> problems(final JobSpec spec, final List<Path> datasetRoots) {
        final List<String> problems = new ArrayList<>();
        if (!JOB_NAME.matcher(spec.getJob()).matches()) {
            problems.add("job name '" + spec.getJob() + "' must be 1-100 of A-Z a-z 0-9 . _ -");
        }
        final boolean shapeInRange = inRange(problems, "inputs", spec.getInputs(), 1, MAX_INPUTS)
                & inRange(problems, "outputs", spec.getOutputs(), 1, MAX_OUTPUTS)
                & inRange(problems, "parameters", spec.getParameters(), 1, MAX_PARAMETERS);
        if (shapeInRange) {
            problems.addAll(modelProblems(spec));
        }
        if (spec.getShards() < 1 || spec.getShards() > Math.min(spec.getParameters(), MAX_SHARDS)) {
            problems.add("shards must be between 1 and the parameter count, at most " + MAX_SHARDS + ", not "
                    + spec.getShards());
        }
        inRange(problems, "staleness", spec.getStaleness(), 0, MAX_STALENESS);
        if (!(spec.getLearningRate() > 0) || !Double.isFinite(spec.getLearningRate())) {
            problems.add("learningRate must be > 0 and finite, not " + spec.getLearningRate());
        }
        if (spec.getLearningRateSchedule() == LearningRateScheduleKind.COSINE && spec.getDecayClocks() < 1) {
            problems.add("a COSINE learning-rate schedule needs decayClocks >= 1, not " + spec.getDecayClocks());
        }
        inRange(problems, "globalBatch", spec.getGlobalBatch(), 1, MAX_GLOBAL_BATCH);
        inRange(problems, "expectedWorkers", spec.getExpectedWorkers(), 1, MAX_WORKERS);
        if (spec.getGlobalBatch() < spec.getExpectedWorkers()) {
            problems.add("globalBatch (" + spec.getGlobalBatch() + ") must be at least the worker count ("
                    + spec.getExpectedWorkers() + "), so that every worker gets a sample");
        }
        inRange(problems, "epochs", spec.getEpochs(), 1, MAX_EPOCHS);
        if (spec.getGradientEncoding() == GradientEncoding.FLOAT64) {
            problems.add("gradientEncoding must be FLOAT32 or BFLOAT16, not FLOAT64 (only a host's sum is sent so)");
        }
        inRange(problems, "sessionTimeoutMs", spec.getSessionTimeoutMs(), 1, MAX_SESSION_TIMEOUT_MS);
        problems.addAll(DatasetChecks.problems(spec.getDataset(), datasetRoots));
        if (spec.getPipelineDepth() < 0 || spec.getPipelineDepth() > MAX_PIPELINE_DEPTH) {
            problems.add(
                    "pipelineDepth must be between 0 and " + MAX_PIPELINE_DEPTH + ", not " + spec.getPipelineDepth());
        } else if (spec.getPipelineDepth() > 0 && spec.getSyncMode() != SyncMode.BSP) {
            problems.add("pipelineDepth " + spec.getPipelineDepth() + " needs BSP, not " + spec.getSyncMode()
                    + " (SSP and ASP never wait for a barrier to pipeline)");
        }
        if (problems.isEmpty()) {
            problems.addAll(shardSizeProblems(spec));
        }
        return problems;
    }

    /**
     * Whether a shard of {@code spec}'s layout is over the {@link ShardSizing#RECORD_BUDGET_BYTES} a shard's
     * records are sized for: more would make its model, gradient and state records over a topic's
     * {@code max.message.bytes} (1 MiB by default), which the aggregator could not write.
     */
    private static List<String> shardSizeProblems(final JobSpec spec) {
        final ShardLayout layout = layout(spec);
        int largest = 0;
        for (int shard = 0; shard < layout.shards(); shard++) {
            largest = Math.max(largest, layout.length(shard));
        }
        if ((long) largest * Float.BYTES <= ShardSizing.RECORD_BUDGET_BYTES) {
            return List.of();
        }
        final int fewest = spec.getStages() > 1 && model(spec) instanceof PipelineModel pipeline
                ? StagePlan.minimumShards(pipeline, spec.getStages())
                : ShardSizing.minimumShards(spec.getParameters());
        return List.of("shards must be at least " + fewest + ": " + spec.getShards() + " put up to " + largest
                + " parameters in one shard, over the " + ShardSizing.RECORD_BUDGET_BYTES / Float.BYTES
                + " whose records fit a topic's max.message.bytes");
    }

    /** What is wrong with the model {@code spec} names, its shape in range: built in, or external. */
    private static List<String> modelProblems(final JobSpec spec) {
        final List<String> problems = new ArrayList<>(ExternalModels.problems(spec));
        if (ExternalModels.isExternal(spec)) {
            problems.addAll(StagePlan.problems(spec, null));
            return problems;
        }
        try {
            final Model model = model(spec);
            if (model.parameterCount() != spec.getParameters()) {
                problems.add("parameters is " + spec.getParameters() + " but model " + spec.getModel() + " with "
                        + spec.getInputs() + " inputs and " + spec.getOutputs() + " outputs has "
                        + model.parameterCount());
            }
            problems.addAll(StagePlan.problems(spec, model));
        } catch (final IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        return problems;
    }

    /** Whether {@code value} is in {@code [min, max]}; adds the problem, naming the field, when not. */
    private static boolean inRange(
            final List<String> problems, final String field, final long value, final long min, final long max) {
        if (value < min || value > max) {
            problems.add(field + " must be between " + min + " and " + max + ", not " + value);
            return false;
        }
        return true;
    }

    /** {@code spec} itself, or an IllegalArgumentException listing its problems. */
    public static JobSpec requireValid(final JobSpec spec) {
        final List<String> problems = problems(spec);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid job " + spec.getJob() + ": " + String.join("; ", problems));
        }
        return spec;
    }

    /**
     * The built-in model {@code spec} names.
     *
     * @throws IllegalArgumentException for an unknown kind or shape, and for an external model, whose maths only
     *     its workers know
     */
    public static Model model(final JobSpec spec) {
        if (ExternalModels.isExternal(spec)) {
            throw new IllegalArgumentException("job " + spec.getJob() + " has an external model: only its own "
                    + "workers (a Python worker, say) know its maths");
        }
        return Models.create(spec.getModel(), spec.getInputs(), spec.getOutputs());
    }

    /** The shards of {@code spec}: the plain layout, or for a hybrid job one aligned to the stages ({@link StagePlan}). */
    public static ShardLayout layout(final JobSpec spec) {
        return StagePlan.of(spec).layout();
    }

    /** The learning-rate factor per clock that {@code spec} asks for. */
    public static LearningRateSchedule schedule(final JobSpec spec) {
        return spec.getLearningRateSchedule() == LearningRateScheduleKind.COSINE
                ? LearningRateSchedule.cosine(spec.getDecayClocks())
                : LearningRateSchedule.constant();
    }

    public static Optimizer optimizer(final JobSpec spec) {
        return spec.getOptimizer() == OptimizerKind.ADAM
                ? Optimizers.adam(spec.getLearningRate(), spec.getBeta1(), spec.getBeta2(), spec.getEpsilon())
                : Optimizers.sgd(spec.getLearningRate(), spec.getMomentum());
    }

    /** How {@code spec}'s workers depart from plain BSP: gradient precision and pipeline depth. */
    public static BspVariant bspVariant(final JobSpec spec) {
        return new BspVariant(gradientPrecision(spec), Math.max(0, spec.getPipelineDepth()));
    }

    /**
     * Whether {@code spec}'s workers that share a process send one host's sum a clock, exact to the bit: BSP (each
     * clock's gradients all computed on one version), float32 gradients, one pipeline stage, examples from a file
     * rather than a topic.
     */
    public static boolean summableOnHost(final JobSpec spec) {
        return spec.getSyncMode() == SyncMode.BSP
                && spec.getGradientEncoding() == GradientEncoding.FLOAT32
                && spec.getStages() <= 1
                && !TopicSpec.isTopic(spec.getDataset());
    }

    /** The precision {@code spec}'s workers ship gradients in. */
    public static GradientPrecision gradientPrecision(final JobSpec spec) {
        return spec.getGradientEncoding() == GradientEncoding.BFLOAT16
                ? GradientPrecision.BFLOAT16
                : GradientPrecision.FLOAT32;
    }

    /**
     * The encoding named {@code name} ({@code float32} or {@code bfloat16}, any case).
     *
     * @throws IllegalArgumentException naming the choices, for any other name
     */
    public static GradientEncoding gradientEncoding(final String name) {
        for (final GradientEncoding encoding : List.of(GradientEncoding.FLOAT32, GradientEncoding.BFLOAT16)) {
            if (encoding.name().equalsIgnoreCase(name)) {
                return encoding;
            }
        }
        throw new IllegalArgumentException("gradient encoding must be float32 or bfloat16, not " + name);
    }
}
