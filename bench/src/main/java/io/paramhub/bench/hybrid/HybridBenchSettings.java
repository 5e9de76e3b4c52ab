package io.paramhub.bench.hybrid;

import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.DemoJobs;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import io.paramhub.ml.PipelineModel;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.StagePlan;
import io.paramhub.worker.ComputeEmulation;
import java.util.HashMap;
import java.util.Map;

/**
 * What {@code paramhub bench --scenario hybrid} is asked to do, checked, with Fashion-MNIST loaded: the
 * model to cut, the workers (all of them data-parallel in one run, {@code workers / stages} replicas of
 * {@code stages} stages in the other), the batch, epochs, seed and shards shared by both runs, the
 * micro-batches of the hybrid one, and the emulated cost of a sample.
 */
public record HybridBenchSettings(
        PipelineModel model,
        TrainTest data,
        String dataset,
        int workers,
        int stages,
        int microBatches,
        int batch,
        int epochs,
        long seed,
        int requestedShards,
        long sampleCostMicros,
        String topicPrefix) {

    /** The {@code --scenario} name. */
    public static final String SCENARIO = "hybrid";

    public static final String DEFAULT_MODEL = "cnn";
    public static final int DEFAULT_STAGES = 2;
    public static final int DEFAULT_MICRO_BATCHES = 2;
    public static final int DEFAULT_EPOCHS = 1;
    /** Training images the default run takes from Fashion-MNIST: 64 rounds of batch 128. */
    public static final int DEFAULT_TRAIN_SAMPLES = 8192;

    private static final String FASHION_MNIST = DataSources.FASHION_MNIST;

    /**
     * Checks the options and loads the data: the first {@code trainSamples} Fashion-MNIST training images and
     * the whole test set.
     *
     * @param shards the shards asked for, or null: both runs get at least what the hybrid cut needs
     *     ({@link StagePlan#minimumShards})
     * @throws IllegalArgumentException naming the option at fault
     */
    public static HybridBenchSettings of(
            final String modelKind,
            final int trainSamples,
            final int workers,
            final int stages,
            final int microBatches,
            final int batch,
            final int epochs,
            final long seed,
            final Integer shards,
            final long sampleCostMicros,
            final String topicPrefix) {
        if (stages < 2 || microBatches < 1) {
            throw new IllegalArgumentException("hybrid needs --stages >= 2 (the data-parallel run is the 1-stage one) "
                    + "and --micro-batches >= 1, not " + stages + " and " + microBatches);
        }
        if (workers < stages || workers % stages != 0) {
            throw new IllegalArgumentException("hybrid needs --workers a multiple of --stages (" + stages
                    + "), so that the hybrid run has whole replicas, not " + workers);
        }
        if (batch < workers || epochs < 1 || sampleCostMicros < 0 || shards != null && shards < 1) {
            throw new IllegalArgumentException(
                    "hybrid needs --batch >= --workers, --epochs >= 1, " + "--sample-cost-us >= 0 and --shards >= 1");
        }
        if (trainSamples < batch) {
            throw new IllegalArgumentException(
                    "--train-samples must be at least --batch (" + batch + "), not " + trainSamples);
        }
        final TrainTest full = DataSources.load(FASHION_MNIST);
        final TrainTest data = new TrainTest(full.train().head(trainSamples), full.test());
        final Model model;
        try {
            model = Models.forData(modelKind, data.train());
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("--model: " + e.getMessage(), e);
        }
        if (!(model instanceof PipelineModel pipeline) || pipeline.maxStages() < stages) {
            throw new IllegalArgumentException("--model " + model.kind() + " cannot be cut into " + stages
                    + " pipeline stages (mlp and cnn can; see docs/models.md)");
        }
        final int minimum = StagePlan.minimumShards(pipeline, stages);
        return new HybridBenchSettings(
                pipeline,
                data,
                FASHION_MNIST + " (first " + data.train().size() + " training images)",
                workers,
                stages,
                microBatches,
                batch,
                epochs,
                seed,
                Math.max(shards != null ? shards : 1, minimum),
                sampleCostMicros,
                topicPrefix);
    }

    /** Replicas of the hybrid run. */
    public int replicas() {
        return workers / stages;
    }

    /**
     * The job of one run: the demo's BSP job for the model ({@link DemoJobs}), the same for both runs but for
     * its stages (1 for data-parallel) and micro-batches.
     */
    JobSpec jobSpec(final boolean hybrid, final String job) {
        return JobSpecs.requireValid(DemoJobs.defaults(
                        model, requestedShards, job, FASHION_MNIST, data.train().size(), workers, batch, epochs, seed)
                .setStages(hybrid ? stages : 1)
                .setMicroBatches(hybrid ? microBatches : 1)
                .build());
    }

    /** Every worker's emulation: {@code sampleCostMicros} a sample (a stage worker pays its stage's share). */
    Map<Integer, ComputeEmulation> emulations() {
        final Map<Integer, ComputeEmulation> byWorker = new HashMap<>();
        for (int index = 0; index < workers; index++) {
            byWorker.put(index, new ComputeEmulation(1.0, 0, sampleCostMicros));
        }
        return byWorker;
    }
}
