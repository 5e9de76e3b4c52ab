package io.paramhub.topology.jobs;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.TensorShape;
import io.paramhub.schemas.FloatPacking;
import java.time.Instant;
import java.util.List;

/** A small external-model job for tests. */
public final class ExternalJobs {

    private ExternalJobs() {}

    /** weight 2x3 and bias 2: 8 parameters in 3 shards (3, 3, 2), version 0 = 0.5, 1.5, ..., 7.5. */
    public static JobSpec.Builder external() {
        final float[] initial = new float[8];
        for (int i = 0; i < initial.length; i++) {
            initial[i] = i + 0.5f;
        }
        return JobSpec.newBuilder()
                .setJob("ext")
                .setModel(ExternalModels.KIND)
                .setDataset("linear:n=64,d=3")
                .setInputs(3)
                .setOutputs(2)
                .setParameters(8)
                .setShards(3)
                .setSyncMode(SyncMode.BSP)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.1)
                .setGlobalBatch(8)
                .setExpectedWorkers(2)
                .setEpochs(1)
                .setSeed(7)
                .setTensors(
                        List.of(new TensorShape("fc.weight", List.of(2, 3)), new TensorShape("fc.bias", List.of(2))))
                .setInitialParameters(FloatPacking.pack(initial))
                .setCreatedAt(Instant.ofEpochMilli(1_700_000_000_000L));
    }
}
