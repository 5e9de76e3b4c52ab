package io.paramhub.embedded;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.ml.Evaluation;
import io.paramhub.ml.Model;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.ModelBounds;
import io.paramhub.topology.client.ModelSnapshots;
import io.paramhub.topology.client.ModelVersionFilter;
import io.paramhub.topology.client.TopicReader;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.serialization.Serdes;

/**
 * What a {@link TrainingRun} reads back, as any service consuming the topics could: the exact model of each
 * epoch's last version on {@code model}, evaluated on the test set, and the records on {@code dead-letters}.
 */
final class EpochEvaluator {

    private final TopicCatalog topics;
    private final Properties client;

    EpochEvaluator(final TopicCatalog topics, final Properties client) {
        this.topics = topics;
        this.client = client;
    }

    /** The epochs' results and the parameters of the last one. */
    record Evaluated(List<EpochResult> epochs, float[] finalParameters) {}

    /** Reads {@code model} and evaluates the exact model of each epoch's last version. */
    Evaluated evaluate(
            final TrainingRun.Job job,
            final TrainTest data,
            final LossTally losses,
            final RunListener listener,
            final long started,
            final AtomicBoolean stop) {
        final JobSpec spec = job.spec();
        final Model model = JobSpecs.model(spec);
        final ModelSnapshots snapshots = new ModelSnapshots(
                        spec.getJob(), spec.getParameters(), spec.getShards(), job.iterationsPerEpoch())
                .bounded(new ModelBounds(
                        spec.getShards(),
                        (long) spec.getEpochs() * job.iterationsPerEpoch(),
                        spec.getExpectedWorkers(),
                        spec.getParameters()));
        final List<EpochResult> epochs = new ArrayList<>();
        final AtomicReference<float[]> lastParameters = new AtomicReference<>();
        // only the versions that end an epoch are decoded: the others are passed over by their min-clock header
        final Topic<String, ModelShard> versions = topics.model();
        final Topic<String, ModelShard> epochEnds = new Topic<>(
                versions.name(),
                versions.keySerde(),
                Serdes.serdeFrom(
                        versions.valueSerde().serializer(),
                        new ModelVersionFilter(versions.valueSerde().deserializer(), snapshots::nextClock)));
        try (TopicReader<String, ModelShard> reader = new TopicReader<>(epochEnds, client)) {
            while (epochs.size() < spec.getEpochs() && !stop.get()) {
                reader.poll(Duration.ofMillis(50), record -> {
                    for (final ModelSnapshots.Snapshot snapshot : snapshots.offer(record.value())) {
                        if (epochs.size() == spec.getEpochs()) {
                            return;
                        }
                        final float[] params = snapshot.parameters();
                        final int epoch = epochs.size() + 1;
                        final boolean classification = data.test().isClassification();
                        final double metric = classification
                                ? Evaluation.accuracy(model, params, data.test())
                                : Evaluation.rmse(model, params, data.test());
                        final EpochResult result = new EpochResult(
                                epoch,
                                snapshot.minVersion(),
                                losses.meanLoss(epoch - 1),
                                classification ? "accuracy" : "rmse",
                                metric,
                                (System.nanoTime() - started) / 1e9);
                        epochs.add(result);
                        lastParameters.set(params);
                        listener.onEpoch(result);
                    }
                });
            }
        }
        return new Evaluated(epochs, lastParameters.get());
    }

    /** How many records {@code dead-letters} holds now. */
    long countDeadLetters() {
        final AtomicLong count = new AtomicLong();
        try (TopicReader<String, DeadLetter> reader = new TopicReader<>(topics.deadLetters(), client)) {
            int read;
            do {
                read = reader.poll(Duration.ofMillis(200), record -> count.incrementAndGet());
            } while (read > 0);
        }
        return count.get();
    }
}
