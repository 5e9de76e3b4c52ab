package io.paramhub.worker;

import io.paramhub.avro.OnlineClock;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.TopicSpec;
import io.paramhub.topology.client.ModelView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

/**
 * A topic-mode worker's clock: takes its share of the global batch from its partitions of the data topic
 * ({@link ExampleFeed}; the orchestrator's shares apply under BSP as they do to files), predicts each example with
 * the model it computes on before training on it (prequential evaluation), computes the gradient of the examples
 * on its pool of threads, and hands what it read, the offsets to commit and what to report with the gradient
 * ({@link ClockWork#online}). When its input is over it stops the worker, which leaves the job. Reads the data
 * topic through the feed; writes no topic.
 */
final class StreamCompute implements ClockCompute {

    private final JobContext job;
    private final WorkerSettings settings;
    private final TopicSpec topic;
    private final ExampleFeed feed;
    private final ParallelGradient pool;
    private final BooleanSupplier stopping;
    private final Runnable stop;
    private final Freshness freshness;
    private final int[] wholeBatch;

    StreamCompute(
            final JobContext job,
            final WorkerSettings settings,
            final TopicSpec topic,
            final ExampleFeed feed,
            final BooleanSupplier stopping,
            final Runnable stop) {
        this.job = job;
        this.settings = settings;
        this.topic = topic;
        this.feed = feed;
        this.pool = new ParallelGradient(settings.threads());
        this.stopping = stopping;
        this.stop = stop;
        this.freshness = new Freshness(settings.workerId());
        this.wholeBatch = IntStream.range(0, job.spec().getGlobalBatch()).toArray();
    }

    @Override
    public long resumeClock() {
        return feed.resume().clock();
    }

    @Override
    public ClockWork compute(final long clock, final float[] params, final ModelView model) {
        final List<Integer> fresh = freshness.included(model, System.currentTimeMillis());
        final double[] planned = DataParallelCompute.plannedShares(job.sync(), model, settings);
        final int quota = planned == null
                ? BatchPlan.roundRobinShare(wholeBatch, settings.index(), settings.workers()).length
                : BatchPlan.contiguousShare(wholeBatch, planned, settings.index()).length;
        final ClockInput input = feed.take(quota, topic.lingerMs(), stopping);
        if (input.over()) {
            stop.run();
            return null;
        }
        if (input.examples().isEmpty() && input.bad().isEmpty() && stopping.getAsBoolean()) {
            return null;
        }
        final long computeStart = System.nanoTime();
        final Dataset batch = batch(input.examples());
        final double[] gradient = job.buffers().zeroedGradient();
        int correct = 0;
        double loss = 0;
        if (batch != null) {
            correct = correct(params, batch);
            loss = pool.accumulate(
                    job.model(),
                    params,
                    batch,
                    IntStream.range(0, batch.size()).toArray(),
                    gradient,
                    job.spec().getSeed(),
                    clock);
        }
        final long[] appended = input.examples().stream()
                .mapToLong(ClockInput.Example::timestamp)
                .toArray();
        freshness.trained(clock, appended);
        final OnlineClock report = OnlineClock.newBuilder()
                .setExamples(input.examples().size())
                .setDeadLetters(input.bad().size())
                .setCorrect(correct)
                .setPredictionLoss(loss)
                .setLag(input.lag())
                .setFreshnessMs(fresh)
                .build();
        return new ClockWork(
                gradient,
                input.examples().size(),
                loss,
                (System.nanoTime() - computeStart) / 1e6,
                0.0,
                pool.threads(),
                planned == null ? -1 : model.planVersion(),
                ClockWork.StageWork.WHOLE_MODEL,
                new ClockWork.OnlineWork(report, input.ranges(), input.bad(), feed.offsets(clock + 1), feed.group()));
    }

    /**
     * The examples as a data set of the model's shape, by partition and offset (the order of the gradient's offset
     * ranges, so that a replay of the ranges sums the same samples in the same order), or null when there are none.
     */
    private Dataset batch(final List<ClockInput.Example> taken) {
        if (taken.isEmpty()) {
            return null;
        }
        final List<ClockInput.Example> examples = new ArrayList<>(taken);
        examples.sort(
                Comparator.comparingInt(ClockInput.Example::partition).thenComparingLong(ClockInput.Example::offset));
        final int inputs = job.spec().getInputs();
        final float[] x = new float[examples.size() * inputs];
        final float[] y = new float[examples.size()];
        for (int i = 0; i < examples.size(); i++) {
            System.arraycopy(examples.get(i).features(), 0, x, i * inputs, inputs);
            y[i] = examples.get(i).target();
        }
        final int classes = topic.regression() ? 0 : job.spec().getOutputs();
        return new Dataset(topic.topic(), inputs, x, y, classes);
    }

    /** Of the examples, how many the model classifies correctly before training on them (0 for a regression). */
    private int correct(final float[] params, final Dataset batch) {
        if (!batch.isClassification()) {
            return 0;
        }
        final float[] predictions = new float[batch.size()];
        job.model().predict(params, batch, 0, batch.size(), predictions);
        int correct = 0;
        for (int i = 0; i < batch.size(); i++) {
            if (predictions[i] == batch.y()[i]) {
                correct++;
            }
        }
        return correct;
    }

    @Override
    public void close() {
        pool.close();
        feed.close();
    }
}
