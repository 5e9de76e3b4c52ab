package io.paramhub.aggregator.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.schemas.FloatPacking;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A shard read from the stores, and its JSON form between instances. */
class ShardSnapshotTest {

    @Test
    void shouldTakeTheShapeFromTheJobAndTheValuesFromTheNewestVersionWhenReadFromStores() {
        // given
        final JobSpec spec = linearJob(17, 4);
        final ModelShard state = ModelShard.newBuilder()
                .setJob("j")
                .setShard(2)
                .setShards(4)
                .setFirstParameter(9)
                .setVersion(7)
                .setMinClock(6)
                .setValues(FloatPacking.pack(new float[] {1f, 2f, 3f, 4f}))
                .setUpdatedAt(Instant.EPOCH)
                .build();

        // when
        final ShardSnapshot snapshot = ShardSnapshot.of(spec, state);

        // then
        assertThat(snapshot.shardCount()).isEqualTo(4);
        assertThat(snapshot.parameterCount()).isEqualTo(17);
        assertThat(snapshot.firstParameter()).isEqualTo(9);
        assertThat(snapshot.version()).isEqualTo(7);
        assertThat(snapshot.minClock()).isEqualTo(6);
        assertThat(snapshot.values()).containsExactly(1f, 2f, 3f, 4f);
        assertThat(snapshot.servedBy()).isEqualTo(ShardSnapshot.LOCAL);
    }

    @Test
    void shouldRoundTripEveryFloatExactlyWhenSentAsJson() {
        // given
        final float[] values = {
            0.1f,
            -1e-38f,
            3.4028235e38f,
            Float.MIN_VALUE,
            1f / 3,
            Float.NaN,
            Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY,
            -0f
        };
        final ShardSnapshot sent = new ShardSnapshot("j", 1, 2, 18, 4, 3, 9, values, ShardSnapshot.LOCAL);

        // when
        final ShardSnapshot received =
                ShardSnapshot.fromJson(new JsonObject(sent.toJson().encode()), "h:1");

        // then
        assertThat(received.values()).usingElementComparator(Float::compare).containsExactly(values);
        assertThat(received.servedBy()).isEqualTo("h:1");
        assertThat(received)
                .usingRecursiveComparison()
                .ignoringFields("values", "servedBy")
                .isEqualTo(sent);
    }

    private static JobSpec linearJob(final int parameters, final int shards) {
        return JobSpec.newBuilder()
                .setJob("j")
                .setModel("linear")
                .setDataset("linear")
                .setInputs(parameters - 1)
                .setOutputs(1)
                .setParameters(parameters)
                .setShards(shards)
                .setSyncMode(SyncMode.BSP)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.1)
                .setGlobalBatch(8)
                .setExpectedWorkers(1)
                .setEpochs(1)
                .setSeed(1)
                .setCreatedAt(Instant.EPOCH)
                .build();
    }
}
