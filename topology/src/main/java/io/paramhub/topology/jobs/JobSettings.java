package io.paramhub.topology.jobs;

import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import java.util.Locale;

/**
 * What a user chose for a job, setting by setting, from a command's options or a job file; null where they chose
 * nothing, so that {@link JobRecipe} applies its default. Each setter is named after the option (and job-file key)
 * that sets it; the text parsers here give the errors every command gives for a bad value.
 */
public final class JobSettings {

    private String job;
    private String model;
    private Integer workers;
    private Integer epochs;
    private Integer batch;
    private Integer shards;
    private OptimizerKind optimizer;
    private Double learningRate;
    private Double momentum;
    private LearningRateScheduleKind schedule;
    private SyncMode sync;
    private Integer staleness;
    private Long maxStaleness;
    private Long sessionTimeoutMs;
    private GradientEncoding encoding;
    private Integer pipelineDepth;
    private Integer stages;
    private Integer microBatches;
    private Long seed;

    /** Settings with nothing chosen. */
    public static JobSettings none() {
        return new JobSettings();
    }

    /** {@code --sync}: bsp, ssp or asp, in any case; null stays null. */
    public static SyncMode sync(final String text) {
        return text == null ? null : parse(SyncMode.class, text, "--sync must be bsp, ssp or asp, not " + text);
    }

    /** {@code --optimizer}: sgd or adam, in any case; null stays null. */
    public static OptimizerKind optimizer(final String text) {
        return text == null ? null : parse(OptimizerKind.class, text, "--optimizer must be sgd or adam, not " + text);
    }

    /** {@code --lr-schedule}: constant or cosine, in any case; null stays null. */
    public static LearningRateScheduleKind schedule(final String text) {
        return text == null
                ? null
                : parse(LearningRateScheduleKind.class, text, "--lr-schedule must be constant or cosine, not " + text);
    }

    /** {@code --gradient-encoding}: float32 or bfloat16; null stays null. */
    public static GradientEncoding encoding(final String text) {
        if (text == null) {
            return null;
        }
        try {
            return JobSpecs.gradientEncoding(text);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + e.getMessage(), e);
        }
    }

    private static <E extends Enum<E>> E parse(final Class<E> type, final String text, final String problem) {
        try {
            return Enum.valueOf(type, text.trim().toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException(problem, e);
        }
    }

    public JobSettings job(final String value) {
        job = value;
        return this;
    }

    public JobSettings model(final String value) {
        model = value;
        return this;
    }

    public JobSettings workers(final Integer value) {
        workers = value;
        return this;
    }

    public JobSettings epochs(final Integer value) {
        epochs = value;
        return this;
    }

    public JobSettings batch(final Integer value) {
        batch = value;
        return this;
    }

    public JobSettings shards(final Integer value) {
        shards = value;
        return this;
    }

    public JobSettings optimizer(final OptimizerKind value) {
        optimizer = value;
        return this;
    }

    public JobSettings learningRate(final Double value) {
        learningRate = value;
        return this;
    }

    public JobSettings momentum(final Double value) {
        momentum = value;
        return this;
    }

    public JobSettings schedule(final LearningRateScheduleKind value) {
        schedule = value;
        return this;
    }

    public JobSettings sync(final SyncMode value) {
        sync = value;
        return this;
    }

    public JobSettings staleness(final Integer value) {
        staleness = value;
        return this;
    }

    public JobSettings maxStaleness(final Long value) {
        maxStaleness = value;
        return this;
    }

    public JobSettings sessionTimeoutMs(final Long value) {
        sessionTimeoutMs = value;
        return this;
    }

    public JobSettings encoding(final GradientEncoding value) {
        encoding = value;
        return this;
    }

    public JobSettings pipelineDepth(final Integer value) {
        pipelineDepth = value;
        return this;
    }

    public JobSettings stages(final Integer value) {
        stages = value;
        return this;
    }

    public JobSettings microBatches(final Integer value) {
        microBatches = value;
        return this;
    }

    public JobSettings seed(final Long value) {
        seed = value;
        return this;
    }

    public String job() {
        return job;
    }

    public String model() {
        return model;
    }

    public Integer workers() {
        return workers;
    }

    public Integer epochs() {
        return epochs;
    }

    public Integer batch() {
        return batch;
    }

    public Integer shards() {
        return shards;
    }

    public OptimizerKind optimizer() {
        return optimizer;
    }

    public Double learningRate() {
        return learningRate;
    }

    public Double momentum() {
        return momentum;
    }

    public LearningRateScheduleKind schedule() {
        return schedule;
    }

    public SyncMode sync() {
        return sync;
    }

    public Integer staleness() {
        return staleness;
    }

    public Long maxStaleness() {
        return maxStaleness;
    }

    public Long sessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    public GradientEncoding encoding() {
        return encoding;
    }

    public Integer pipelineDepth() {
        return pipelineDepth;
    }

    public Integer stages() {
        return stages;
    }

    public Integer microBatches() {
        return microBatches;
    }

    public Long seed() {
        return seed;
    }
}
