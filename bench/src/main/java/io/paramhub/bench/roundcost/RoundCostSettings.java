package io.paramhub.bench.roundcost;

import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.DemoJobs;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Mlp;
import io.paramhub.ml.Model;
import io.paramhub.ml.Models;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.jobs.JobSpecs;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What {@code paramhub bench --scenario round-cost} is asked to do, checked, with Fashion-MNIST loaded: the
 * models, each trained as the demo trains it ({@link DemoJobs}), the workers, batch, epochs, seed and shards of
 * every job, and how many clocks of the replayed model to replay.
 */
public record RoundCostSettings(
        List<Model> models,
        TrainTest data,
        String dataset,
        int workers,
        int batch,
        int epochs,
        long seed,
        int requestedShards,
        long replayClocks,
        String topicPrefix) {

    /** The {@code --scenario} name. */
    public static final String SCENARIO = "round-cost";

    public static final String DEFAULT_MODELS = "softmax,mlp";
    public static final int DEFAULT_EPOCHS = 1;
    /** One shard per aggregator instance, as the demo; a model's size raises it. */
    public static final int DEFAULT_SHARDS = 1;

    public static final long DEFAULT_REPLAY_CLOCKS = 100;
    private static final String FASHION_MNIST = DataSources.FASHION_MNIST;

    /**
     * Checks the options and loads the data: Fashion-MNIST, or its first {@code trainSamples} training images
     * when not null (the test set whole).
     *
     * @throws IllegalArgumentException naming the option at fault
     */
    public static RoundCostSettings of(
            final String models,
            final Integer trainSamples,
            final int workers,
            final int batch,
            final int epochs,
            final long seed,
            final int shards,
            final long replayClocks,
            final String topicPrefix) {
        if (workers < 1 || batch < workers || epochs < 1 || shards < 1 || replayClocks < 1) {
            throw new IllegalArgumentException("round-cost needs --workers >= 1, --batch >= --workers, --epochs >= 1, "
                    + "--shards >= 1 and --replay-clocks >= 1");
        }
        if (trainSamples != null && trainSamples < batch) {
            throw new IllegalArgumentException(
                    "--train-samples must be at least --batch (" + batch + "), not " + trainSamples);
        }
        final List<String> kinds = parseModels(models);
        final TrainTest full = DataSources.load(FASHION_MNIST);
        final TrainTest data =
                trainSamples == null ? full : new TrainTest(full.train().head(trainSamples), full.test());
        final List<Model> chosen = new ArrayList<>();
        for (final String kind : kinds) {
            try {
                chosen.add(Models.forData(kind, data.train()));
            } catch (final IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "--models: " + e.getMessage() + " (round-cost trains Fashion-MNIST "
                                + "classifiers: softmax, mlp, cnn, or a shape such as mlp:64)",
                        e);
            }
        }
        final String dataset = trainSamples == null
                ? FASHION_MNIST
                : FASHION_MNIST + " (first " + data.train().size() + " training images)";
        return new RoundCostSettings(
                List.copyOf(chosen), data, dataset, workers, batch, epochs, seed, shards, replayClocks, topicPrefix);
    }

    /**
     * The model kinds of a comma-separated {@code --models}, trimmed and lower-cased, in order.
     *
     * @throws IllegalArgumentException when it names none, or a model twice
     */
    static List<String> parseModels(final String models) {
        final Set<String> kinds = new LinkedHashSet<>();
        for (final String part : (models == null ? "" : models).split(",")) {
            final String kind = part.trim().toLowerCase(Locale.ROOT);
            if (kind.isEmpty()) {
                continue;
            }
            if (!kinds.add(kind)) {
                throw new IllegalArgumentException("--models names " + kind + " twice");
            }
        }
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("--models must name at least one model, e.g. " + DEFAULT_MODELS);
        }
        return List.copyOf(kinds);
    }

    /** The job {@code model} trains: the demo's, on this data with these workers, batch, epochs, seed and shards. */
    JobSpec jobSpec(final Model model, final String job) {
        return JobSpecs.requireValid(DemoJobs.defaults(
                        model, requestedShards, job, FASHION_MNIST, data.train().size(), workers, batch, epochs, seed)
                .build());
    }

    /** A job name for {@code model}: {@code round-cost-KIND-STAMP}, with what a job name cannot hold replaced by '-'. */
    static String jobName(final Model model, final String stamp) {
        return ("round-cost-" + model.kind() + "-" + stamp).replaceAll("[^A-Za-z0-9._-]", "-");
    }

    /**
     * The model whose recorded gradients are replayed: the first MLP (the issue asks for the MLP's gradient-record
     * size), else the last model.
     */
    Model replayed() {
        return models.stream()
                .filter(model -> model.kind().split(":", 2)[0].equals(Mlp.KIND))
                .findFirst()
                .orElse(models.get(models.size() - 1));
    }
}
