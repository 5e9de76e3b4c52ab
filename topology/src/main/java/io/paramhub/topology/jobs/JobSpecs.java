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
import io.paramhub.ml.ShardLayout;
import io.paramhub.ml.ShardSizing;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Checks a {@link JobSpec} and derives from it the model, shard layout and optimizer it names. */
public final class JobSpecs {

    /** Deepest pipelined BSP a job may ask for: each level is one more version of staleness. */
    public static final int MAX_PIPELINE_DEPTH = 4;

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

    /** What is wrong with {@code spec}, one sentence a problem; empty when it can run. */
    public static List<String> problems(final JobSpec spec) {
        final List<String> problems = new ArrayList<>();
        if (!JOB_NAME.matcher(spec.getJob()).matches()) {
            problems.add("job name '" + spec.getJob() + "' must be 1-100 of A-Z a-z 0-9 . _ -");
        }
        try {
            final Model model = model(spec);
            if (model.parameterCount() != spec.getParameters()) {
                problems.add("parameters is " + spec.getParameters() + " but model " + spec.getModel()
                        + " with " + spec.getInputs() + " inputs and " + spec.getOutputs() + " outputs has "
                        + model.parameterCount());
            }
        } catch (final IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (spec.getShards() < 1 || spec.getShards() > spec.getParameters()) {
            problems.add("shards must be between 1 and the parameter count, not " + spec.getShards());
        }
        if (spec.getStaleness() < 0) {
            problems.add("staleness must be >= 0, not " + spec.getStaleness());
        }
        if (!(spec.getLearningRate() > 0)) {
            problems.add("learningRate must be > 0, not " + spec.getLearningRate());
        }
        if (spec.getLearningRateSchedule() == LearningRateScheduleKind.COSINE && spec.getDecayClocks() < 1) {
            problems.add("a COSINE learning-rate schedule needs decayClocks >= 1, not " + spec.getDecayClocks());
        }
        if (spec.getGlobalBatch() < 1) {
            problems.add("globalBatch must be >= 1, not " + spec.getGlobalBatch());
        }
        if (spec.getExpectedWorkers() < 1) {
            problems.add("expectedWorkers must be >= 1, not " + spec.getExpectedWorkers());
        }
        if (spec.getGlobalBatch() < spec.getExpectedWorkers()) {
            problems.add("globalBatch (" + spec.getGlobalBatch() + ") must be at least the worker count ("
                    + spec.getExpectedWorkers() + "), so that every worker gets a sample");
        }
        if (spec.getEpochs() < 1) {
            problems.add("epochs must be >= 1, not " + spec.getEpochs());
        }
        if (spec.getPipelineDepth() < 0 || spec.getPipelineDepth() > MAX_PIPELINE_DEPTH) {
            problems.add("pipelineDepth must be between 0 and " + MAX_PIPELINE_DEPTH + ", not "
                    + spec.getPipelineDepth());
        } else if (spec.getPipelineDepth() > 0 && spec.getSyncMode() != SyncMode.BSP) {
            problems.add("pipelineDepth " + spec.getPipelineDepth() + " needs BSP, not " + spec.getSyncMode()
                    + " (SSP and ASP never wait for a barrier to pipeline)");
        }
        return problems;
    }

    /** {@code spec} itself, or an IllegalArgumentException listing its problems. */
    public static JobSpec requireValid(final JobSpec spec) {
        final List<String> problems = problems(spec);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid job " + spec.getJob() + ": " + String.join("; ", problems));
        }
        return spec;
    }

    public static Model model(final JobSpec spec) {
        return Models.create(spec.getModel(), spec.getInputs(), spec.getOutputs());
    }

    public static ShardLayout layout(final JobSpec spec) {
        return ShardLayout.of(spec.getParameters(), spec.getShards());
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
        for (final GradientEncoding encoding : GradientEncoding.values()) {
            if (encoding.name().equalsIgnoreCase(name)) {
                return encoding;
            }
        }
        throw new IllegalArgumentException("gradient encoding must be float32 or bfloat16, not " + name);
    }
}
