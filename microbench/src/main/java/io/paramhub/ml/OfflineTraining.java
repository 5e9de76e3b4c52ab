package io.paramhub.ml;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Trains a model on Fashion-MNIST in one process with the maths of a BSP job through Kafka, and prints
 * the test accuracy after every epoch: for searching a recipe (optimizer, rate, schedule, batch,
 * architecture) without a broker. Each of {@code --workers} workers sums the gradient of its round-robin
 * share of the batch in double for the clock and seed, as float32 on the wire; the shares are summed in
 * worker order and divided by the batch; the optimizer steps with the schedule's factor for the clock.
 * It is {@link ReferenceTrainer#trainSharded} with one shard and the workers' gradients on a thread pool;
 * that is what the workers and the aggregator's shards compute, so a BSP demo with the same settings
 * prints the same accuracies (checked: docs/models.md). The workers' shares run on {@code --threads}
 * threads, which changes the speed, never the result.
 *
 * <pre>
 * java -cp microbench/target/benchmarks.jar io.paramhub.ml.OfflineTraining --model cnn --optimizer adam \
 *     --lr 0.001 --schedule cosine --epochs 10 [--batch 128] [--workers 4] [--seed 42] [--momentum 0.9] [--threads 2]
 * </pre>
 */
public final class OfflineTraining {

    private OfflineTraining() {}

    public static void main(final String[] args) throws Exception {
        final Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        final String kind = options.getOrDefault("model", "mlp");
        final String optimizerName = options.getOrDefault("optimizer", "adam");
        final double learningRate = Double.parseDouble(options.getOrDefault("lr", "0.001"));
        final String scheduleName = options.getOrDefault("schedule", "cosine");
        final int epochs = Integer.parseInt(options.getOrDefault("epochs", "10"));
        final int batch = Integer.parseInt(options.getOrDefault("batch", "128"));
        final long seed = Long.parseLong(options.getOrDefault("seed", "42"));
        final int threads = Integer.parseInt(options.getOrDefault("threads", "2"));
        final double momentum = Double.parseDouble(options.getOrDefault("momentum", "0.9"));
        final int workers = Integer.parseInt(options.getOrDefault("workers", "4"));

        final TrainTest data = FashionMnist.load();
        final Dataset train = data.train();
        final Model model = Models.forData(kind, train);
        final BatchPlan plan = new BatchPlan(train.size(), batch, seed);
        final long clocks = (long) epochs * plan.iterationsPerEpoch();
        final LearningRateSchedule schedule =
                "cosine".equals(scheduleName) ? LearningRateSchedule.cosine(clocks) : LearningRateSchedule.constant();
        final Optimizer optimizer = "adam".equals(optimizerName)
                ? Optimizers.adam(learningRate, 0.9, 0.999, 1e-8)
                : Optimizers.sgd(learningRate, momentum);
        System.out.printf(
                Locale.ROOT,
                "%s, %d parameters, %s, %s, batch %d, %d workers, %d epochs, seed %d%n",
                model.kind(),
                model.parameterCount(),
                optimizer,
                schedule,
                batch,
                workers,
                epochs,
                seed);

        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        final long started = System.nanoTime();
        final double[] epochLoss = new double[1];
        try {
            ReferenceTrainer.trainSharded(
                    model,
                    train,
                    plan,
                    optimizer,
                    schedule,
                    ShardLayout.of(model.parameterCount(), 1),
                    workers,
                    clocks,
                    seed,
                    BspVariant.PLAIN,
                    pool,
                    (clock, params, loss) -> {
                        epochLoss[0] += loss;
                        if ((clock + 1) % plan.iterationsPerEpoch() == 0) {
                            System.out.printf(
                                    Locale.ROOT,
                                    "epoch %d  %.0f s  train loss %.4f  test accuracy %.4f%n",
                                    (clock + 1) / plan.iterationsPerEpoch(),
                                    (System.nanoTime() - started) / 1e9,
                                    epochLoss[0] / ((long) plan.iterationsPerEpoch() * batch),
                                    Evaluation.accuracy(model, params, data.test()));
                            epochLoss[0] = 0;
                        }
                    });
        } finally {
            pool.shutdownNow();
        }
    }
}
