package io.paramhub.topology.jobs;

import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import io.paramhub.ml.PipelineModel;
import io.paramhub.ml.ShardSizing;
import java.time.Instant;

/**
 * The one place that turns what a user chose ({@link JobSettings}, from options or a job file) into a
 * {@link JobSpec}, with one set of defaults: {@code paramhub demo}, {@code paramhub jobs submit} (and its alias
 * {@code paramhub-submit}) and {@code paramhub bench} all build their jobs here, so a job file submitted to a
 * cluster trains exactly what the demo trains with the same settings. Derived fields (the schedule's length, the
 * shard count, SSP's staleness) are computed last, from the chosen values.
 */
public final class JobRecipe {

    /** Passes over the data. */
    public static final int DEFAULT_EPOCHS = 3;
    /** Global batch. */
    public static final int DEFAULT_BATCH = 128;
    /** Parameter shards, at least; raised so that no shard record carries more than 256 KiB. */
    public static final int DEFAULT_SHARDS = 1;
    /** SSP's bound, in clocks. */
    public static final int DEFAULT_STALENESS = 3;
    /** Seed of the sample assignment, the model's version 0 and dropout. */
    public static final long DEFAULT_SEED = 42;
    /** With several pipeline stages: at most how many micro-batches a replica cuts its share into. */
    public static final int DEFAULT_MICRO_BATCHES = 2;
    /** A worker silent this long leaves the live set. */
    public static final long DEFAULT_SESSION_TIMEOUT_MS = 10_000;
    /** No server-side staleness bound of the job's own: 0 for BSP, (2s+2) x workers for SSP, none for ASP. */
    public static final long DEFAULT_MAX_STALENESS = -1;
    /** SGD momentum under plain BSP. */
    public static final double BSP_MOMENTUM = 0.9;
    /** SGD momentum under SSP, ASP and pipelined BSP, whose stale updates already act as momentum. */
    public static final double ASYNC_MOMENTUM = 0.5;

    private JobRecipe() {}

    /**
     * The job of {@code settings} on {@code data}, for a built-in model or one a provider knows.
     *
     * @throws IllegalArgumentException naming the option (or job-file key) at fault: no job or workers, an unknown
     *     model, settings that do not go together
     */
    public static JobSpec spec(final JobSettings settings, final JobData data) {
        final Model model;
        try {
            model = Models.create(require(settings.model(), "--model"), data.inputs(), data.outputs());
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("--model: " + e.getMessage(), e);
        }
        final int workers = require(settings.workers(), "--workers");
        final int stages = or(settings.stages(), 1);
        final int shards = Math.max(requestedShards(settings), minimumShards(model, stages, workers));
        return spec(settings, data, JobSpecs.forModel(model, shards), TrainingRecipe.forModel(model));
    }

    /**
     * The job of {@code settings} on {@code data} for a model the aggregator does not know: {@code modelFields} holds
     * its kind, inputs, outputs, parameters, tensors and version 0; its shards are set here.
     */
    public static JobSpec spec(final JobSettings settings, final JobData data, final JobSpec.Builder modelFields) {
        modelFields.setShards(ShardSizing.shards(modelFields.getParameters(), requestedShards(settings)));
        return spec(
                settings,
                data,
                modelFields,
                new TrainingRecipe(
                        OptimizerKind.SGD, TrainingRecipe.SGD_LEARNING_RATE, LearningRateScheduleKind.CONSTANT));
    }

    /** The shards {@code settings} ask for, before a model's size or stages raise them. */
    public static int requestedShards(final JobSettings settings) {
        final int shards = or(settings.shards(), DEFAULT_SHARDS);
        if (shards < 1) {
            throw new IllegalArgumentException("--shards must be >= 1, not " + shards);
        }
        return shards;
    }

    private static JobSpec spec(
            final JobSettings settings, final JobData data, final JobSpec.Builder model, final TrainingRecipe recipe) {
        final SyncMode sync = or(settings.sync(), SyncMode.BSP);
        final OptimizerKind optimizer = or(settings.optimizer(), recipe.optimizer());
        final LearningRateScheduleKind schedule = or(settings.schedule(), recipe.schedule());
        final int pipelineDepth = or(settings.pipelineDepth(), 0);
        final int batch = or(settings.batch(), DEFAULT_BATCH);
        final int epochs = epochs(settings, data);
        final long clocks = data.clocks(epochs, batch);
        if (schedule == LearningRateScheduleKind.COSINE && clocks < 0) {
            throw new IllegalArgumentException(
                    "--lr-schedule cosine decays the rate to 0 by the end of the job, and a job from a topic without "
                            + "--max-examples or --until-end has no end: give one of them, or --lr-schedule constant");
        }
        return model.setJob(require(settings.job(), "--job"))
                .setDataset(data.dataset())
                .setSyncMode(sync)
                .setStaleness(sync == SyncMode.SSP ? or(settings.staleness(), DEFAULT_STALENESS) : 0)
                .setMaxStaleness(or(settings.maxStaleness(), DEFAULT_MAX_STALENESS))
                .setSessionTimeoutMs(or(settings.sessionTimeoutMs(), DEFAULT_SESSION_TIMEOUT_MS))
                .setGradientEncoding(or(settings.encoding(), GradientEncoding.FLOAT32))
                .setPipelineDepth(pipelineDepth)
                .setStages(or(settings.stages(), 1))
                .setMicroBatches(microBatches(settings))
                .setOptimizer(optimizer)
                .setLearningRate(or(settings.learningRate(), recipe.learningRate(optimizer)))
                .setMomentum(or(
                        settings.momentum(),
                        sync == SyncMode.BSP && pipelineDepth == 0 ? BSP_MOMENTUM : ASYNC_MOMENTUM))
                .setLearningRateSchedule(schedule)
                .setDecayClocks(schedule == LearningRateScheduleKind.COSINE ? clocks : 0)
                .setGlobalBatch(batch)
                .setExpectedWorkers(require(settings.workers(), "--workers"))
                .setEpochs(epochs)
                .setSeed(or(settings.seed(), DEFAULT_SEED))
                .setCreatedAt(Instant.now())
                .build();
    }

    private static int microBatches(final JobSettings settings) {
        final int microBatches = or(settings.microBatches(), DEFAULT_MICRO_BATCHES);
        if (microBatches < 1) {
            throw new IllegalArgumentException("--micro-batches must be >= 1, not " + microBatches);
        }
        return microBatches;
    }

    /** {@code --epochs}, or its default; a job from a topic makes one pass. */
    private static int epochs(final JobSettings settings, final JobData data) {
        if (!data.topic()) {
            return or(settings.epochs(), DEFAULT_EPOCHS);
        }
        if (settings.epochs() != null && settings.epochs() != 1) {
            throw new IllegalArgumentException(
                    "--epochs: a job from a topic makes one pass over it, not " + settings.epochs());
        }
        return 1;
    }

    /**
     * With {@code stages} > 1, the shards the stages of {@code model} need at least (none may hold two stages'
     * parameters); else 1.
     */
    private static int minimumShards(final Model model, final int stages, final int workers) {
        if (stages <= 1) {
            if (stages < 1) {
                throw new IllegalArgumentException("--stages must be >= 1, not " + stages);
            }
            return 1;
        }
        if (!(model instanceof PipelineModel pipeline)) {
            throw new IllegalArgumentException(
                    "--stages " + stages + ": model " + model.kind() + " cannot be cut into pipeline stages");
        }
        if (stages > pipeline.maxStages()) {
            throw new IllegalArgumentException("--stages " + stages + ": model " + model.kind()
                    + " can be cut into 1 to " + pipeline.maxStages() + " stages");
        }
        if (workers % stages != 0) {
            throw new IllegalArgumentException(
                    "--workers (" + workers + ") must be a multiple of --stages (" + stages + ")");
        }
        return StagePlan.minimumShards(pipeline, stages);
    }

    private static <T> T require(final T value, final String option) {
        if (value == null) {
            throw new IllegalArgumentException(option + " is required");
        }
        return value;
    }

    private static <T> T or(final T given, final T otherwise) {
        return given != null ? given : otherwise;
    }
}
