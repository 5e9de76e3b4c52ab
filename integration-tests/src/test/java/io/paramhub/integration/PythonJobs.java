package io.paramhub.integration;

import static org.awaitility.Awaitility.await;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.TensorShape;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.ModelView;
import io.paramhub.topology.client.TopicReader;
import io.paramhub.topology.jobs.ExternalModels;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.Random;

/**
 * The external model the Python worker ITs train (src/test/python/softmax_worker.py): softmax regression of 7
 * classes on 40 features, weight 7 x 40 then bias 7 (287 parameters in 3 shards), on 600 samples the script
 * generates, batch 40, BSP, SGD; and its model as {@code model} holds it.
 */
final class PythonJobs {

    static final int INPUTS = 40;
    static final int OUTPUTS = 7;
    static final int PARAMETERS = OUTPUTS * INPUTS + OUTPUTS;
    static final int SAMPLES = 600;
    static final int GLOBAL_BATCH = 40;
    static final double LEARNING_RATE = 0.1;
    static final long SEED = 11;

    private PythonJobs() {}

    /** The job {@code name} for {@code workers} workers and {@code epochs} epochs, version 0 drawn from the seed. */
    static JobSpec softmax(final String name, final int workers, final int epochs, final long sessionTimeoutMs) {
        final float[] initial = new float[PARAMETERS];
        final Random random = new Random(SEED);
        for (int i = 0; i < initial.length; i++) {
            initial[i] = (float) (0.01 * random.nextGaussian());
        }
        return JobSpec.newBuilder()
                .setJob(name)
                .setModel(ExternalModels.KIND)
                .setDataset("linear:n=" + SAMPLES + ",d=" + INPUTS)
                .setInputs(INPUTS)
                .setOutputs(OUTPUTS)
                .setParameters(PARAMETERS)
                .setShards(3)
                .setSyncMode(SyncMode.BSP)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(LEARNING_RATE)
                .setGlobalBatch(GLOBAL_BATCH)
                .setExpectedWorkers(workers)
                .setEpochs(epochs)
                .setSeed(SEED)
                .setSessionTimeoutMs(sessionTimeoutMs)
                .setTensors(List.of(
                        new TensorShape("weight", List.of(OUTPUTS, INPUTS)), new TensorShape("bias", List.of(OUTPUTS))))
                .setInitialParameters(FloatPacking.pack(initial))
                .setCreatedAt(Instant.now())
                .build();
    }

    /** The clocks of {@code spec}: epochs x floor(samples / batch). */
    static long clocks(final JobSpec spec) {
        return (long) spec.getEpochs() * (SAMPLES / spec.getGlobalBatch());
    }

    /** The job's model on {@code model} once every shard has applied its last clock, waiting up to {@code timeout}. */
    static ModelView finalModel(
            final TopicCatalog topics, final Properties client, final JobSpec spec, final Duration timeout) {
        final ModelView view = new ModelView(spec.getJob(), spec.getShards());
        try (TopicReader<String, ModelShard> reader = new TopicReader<>(topics.model(), client)) {
            await().alias("the model of " + spec.getJob() + " at clock " + clocks(spec))
                    .atMost(timeout)
                    .until(() -> {
                        reader.poll(Duration.ofMillis(100), record -> view.offer(record.value()));
                        return view.minClock() >= clocks(spec);
                    });
        }
        return view;
    }
}
