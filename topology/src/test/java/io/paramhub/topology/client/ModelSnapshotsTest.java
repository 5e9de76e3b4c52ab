package io.paramhub.topology.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link ModelSnapshots} gathers a model as of a clock from {@code model}, tombstones included. */
class ModelSnapshotsTest {

    @Test
    void shouldSkipATombstoneAndStillCompleteTheModelWhenADeletedJobsRecordComesFirst() {
        // given
        final ModelSnapshots snapshots = new ModelSnapshots("kept", 4, 2, 1);

        // when
        final float[] afterTombstone = snapshots.offer(null);
        final float[] afterFirst = snapshots.offer(shard(0, 1f, 2f));
        final float[] afterSecond = snapshots.offer(shard(1, 3f, 4f));

        // then
        assertThat(afterTombstone).isNull();
        assertThat(afterFirst).isNull();
        assertThat(afterSecond).containsExactly(1f, 2f, 3f, 4f);
    }

    private static ModelShard shard(final int shard, final float... values) {
        return ModelShard.newBuilder()
                .setJob("kept")
                .setShard(shard)
                .setShards(2)
                .setFirstParameter(2 * shard)
                .setVersion(1)
                .setMinClock(1)
                .setValues(FloatPacking.pack(values))
                .setUpdatedAt(Instant.ofEpochMilli(1_000))
                .build();
    }
}
