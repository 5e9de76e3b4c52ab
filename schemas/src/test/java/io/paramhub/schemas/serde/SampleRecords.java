package io.paramhub.schemas.serde;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.ShardState;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.schemas.FloatPacking;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * One filled-in record of every generated type, for round-trip tests; shipped in this module's test-jar for the
 * registry's tests.
 */
public final class SampleRecords {

    static final Instant AT = Instant.ofEpochMilli(1_764_000_000_123L);

    private SampleRecords() {}

    public static List<SpecificRecord> all() {
        return List.of(
                jobSpec(),
                gradientShard(),
                modelShard(),
                telemetry(),
                command(),
                workerStatus(),
                deadLetter(),
                shardState());
    }

    static JobSpec jobSpec() {
        return JobSpec.newBuilder()
                .setJob("mnist-1")
                .setModel("softmax")
                .setDataset("fashion-mnist")
                .setInputs(784)
                .setOutputs(10)
                .setParameters(7850)
                .setShards(4)
                .setSyncMode(SyncMode.SSP)
                .setStaleness(2)
                .setOptimizer(OptimizerKind.ADAM)
                .setLearningRate(0.001)
                .setGlobalBatch(256)
                .setExpectedWorkers(3)
                .setEpochs(5)
                .setSeed(7L)
                .setCreatedAt(AT)
                .build();
    }

    static GradientShard gradientShard() {
        return GradientShard.newBuilder()
                .setJob("mnist-1")
                .setShard(2)
                .setWorker("w-0")
                .setClock(17L)
                .setBaseVersion(16L)
                .setSampleCount(64)
                .setLoss(1.25)
                .setValues(FloatPacking.pack(new float[] {1f, -2f, 3.5f}))
                .build();
    }

    static ModelShard modelShard() {
        return ModelShard.newBuilder()
                .setJob("mnist-1")
                .setShard(1)
                .setShards(4)
                .setFirstParameter(1963)
                .setVersion(9L)
                .setMinClock(8L)
                .setValues(FloatPacking.pack(new float[] {0.5f, 0.25f}))
                .setUpdatedAt(AT)
                .build();
    }

    static IterationTelemetry telemetry() {
        return IterationTelemetry.newBuilder()
                .setJob("mnist-1")
                .setWorker("w-1")
                .setClock(3L)
                .setSamples(85)
                .setComputeMs(12.5)
                .setWaitMs(1.5)
                .setThreads(2)
                .setBatchShare(0.33)
                .setCommandEpoch(4L)
                .setLoss(2.5)
                .setTimestamp(AT)
                .build();
    }

    static ResourceCommand command() {
        return ResourceCommand.newBuilder()
                .setJob("mnist-1")
                .setWorker("w-2")
                .setEpoch(5L)
                .setThreads(4)
                .setBatchShare(0.5)
                .setReason("rebalance")
                .setSpeeds(Map.of("w-0", 100.0, "w-2", 250.5))
                .setIssuedAt(AT)
                .build();
    }

    static WorkerStatus workerStatus() {
        return WorkerStatus.newBuilder()
                .setJob("mnist-1")
                .setWorker("w-0")
                .setState(WorkerState.HEARTBEAT)
                .setClock(12L)
                .setTimestamp(AT)
                .build();
    }

    static DeadLetter deadLetter() {
        return DeadLetter.newBuilder()
                .setSourceTopic("gradients")
                .setPartition(3)
                .setOffset(42L)
                .setReason(DeadLetterReason.WRONG_LENGTH)
                .setError("expected 4 floats, got 3")
                .setOriginalBytes(FloatPacking.pack(new float[] {9f}))
                .setTimestamp(AT)
                .build();
    }

    static ShardState shardState() {
        return ShardState.newBuilder()
                .setJob("mnist-1")
                .setShard(0)
                .setVersion(3L)
                .setNextClock(4L)
                .setMinClock(3L)
                .setParams(FloatPacking.pack(new float[] {1f, 2f}))
                .setOptimizerState(
                        List.of(FloatPacking.pack(new float[] {0.1f, 0.2f}), FloatPacking.pack(new float[] {0f, 0f})))
                .build();
    }
}
