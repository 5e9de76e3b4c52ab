package io.paramhub.topology.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ModelSnapshots} gathers a model as of a clock from {@code model}, tombstones included. */
class ModelSnapshotsTest {

    @Test
    void shouldSkipATombstoneAndStillCompleteTheModelWhenADeletedJobsRecordComesFirst() {
        // given
        final ModelSnapshots snapshots = new ModelSnapshots("kept", 4, 2, 1);

        // when
        final List<ModelSnapshots.Snapshot> afterTombstone = snapshots.offer(null);
        final List<ModelSnapshots.Snapshot> afterFirst = snapshots.offer(shard(0, 1, 1f, 2f));
        final List<ModelSnapshots.Snapshot> afterSecond = snapshots.offer(shard(1, 1, 3f, 4f));

        // then
        assertThat(afterTombstone).isEmpty();
        assertThat(afterFirst).isEmpty();
        assertThat(afterSecond).singleElement().satisfies(snapshot -> {
            assertThat(snapshot.clock()).isEqualTo(1);
            assertThat(snapshot.parameters()).containsExactly(1f, 2f, 3f, 4f);
        });
    }

    @Test
    void shouldCompleteEveryClocksModelWhenOneShardsWholeBacklogComesBeforeTheOthers() {
        // given: snapshots every 2 clocks; a reader catching up gets shard 0's versions 1-4, then shard 1's
        final ModelSnapshots snapshots = new ModelSnapshots("kept", 4, 2, 2);
        for (int version = 1; version <= 4; version++) {
            assertThat(snapshots.offer(shard(0, version, version, version))).isEmpty();
        }

        // when
        final List<ModelSnapshots.Snapshot> completed = new ArrayList<>();
        for (int version = 1; version <= 4; version++) {
            completed.addAll(snapshots.offer(shard(1, version, 10 * version, 10 * version)));
        }

        // then: the models as of clocks 2 and 4, each from its own versions of both shards
        assertThat(completed).extracting(ModelSnapshots.Snapshot::clock).containsExactly(2L, 4L);
        assertThat(completed.get(0).parameters()).containsExactly(2f, 2f, 20f, 20f);
        assertThat(completed.get(1).parameters()).containsExactly(4f, 4f, 40f, 40f);
        assertThat(completed.get(1).minVersion()).isEqualTo(4);
    }

    @Test
    void shouldPassOverAMinClockPastTheJobsEndWhenBounded() {
        // given: a job of 10 clocks, a snapshot every clock
        final ModelSnapshots snapshots = new ModelSnapshots("kept", 4, 2, 1).bounded(new ModelBounds(2, 10, 1, 4));
        final ModelShard forged = ModelShard.newBuilder(shard(0, 1, 1f, 2f))
                .setMinClock(1_000_000_000_000L)
                .build();

        // when
        final var completed = snapshots.offer(forged);

        // then: nothing started, the next clock wanted unchanged
        assertThat(completed).isEmpty();
        assertThat(snapshots.nextClock()).isEqualTo(1);
    }

    private static ModelShard shard(final int shard, final long version, final float... values) {
        return ModelShard.newBuilder()
                .setJob("kept")
                .setShard(shard)
                .setShards(2)
                .setFirstParameter(2 * shard)
                .setVersion(version)
                .setMinClock(version)
                .setValues(FloatPacking.pack(values))
                .setUpdatedAt(Instant.ofEpochMilli(1_000))
                .build();
    }
}
