package io.paramhub.topology.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tests the worker's view of a job's model: newest versions, and the versions kept for pipelined BSP. */
class ModelViewTest {

    @Test
    void shouldAssembleTheNewestVersionOfEveryShard() {
        // given
        final ModelView view = new ModelView("job", 2);

        // when
        view.offer(shard(0, 3, 1f));
        view.offer(shard(1, 3, 2f));
        view.offer(shard(0, 4, 5f));
        view.offer(shard(0, 2, 9f));

        // then
        assertThat(view.versions()).containsExactly(4, 3);
        assertThat(view.assemble(4)).containsExactly(5f, 5f, 2f, 2f);
    }

    @Test
    void shouldGiveTheModelAtAnOlderVersionItKeeps() {
        // given: two versions kept a shard, the newer one already in for shard 0
        final ModelView view = new ModelView("job", 2, 2);
        view.offer(shard(0, 6, 1f));
        view.offer(shard(1, 6, 2f));
        view.offer(shard(0, 7, 3f));

        // when
        final ModelView atSix = view.at(6);

        // then
        assertThat(atSix.versions()).containsExactly(6, 6);
        assertThat(atSix.assemble(4)).containsExactly(1f, 1f, 2f, 2f);
        assertThat(view.versions()).containsExactly(7, 6);
    }

    @Test
    void shouldFallBackToTheOldestKeptVersionWhenTheAskedOneIsGone() {
        // given: a view that joined at version 9 never saw version 8
        final ModelView view = new ModelView("job", 1, 2);
        view.offer(shard(0, 9, 4f));
        view.offer(shard(0, 10, 5f));
        view.offer(shard(0, 11, 6f));

        // then: version 9 fell out (two kept), so 10 it is
        assertThat(view.at(8).versions()).containsExactly(10);
        assertThat(view.at(11).assemble(2)).containsExactly(6f, 6f);
    }

    @Test
    void shouldHoldAndWaitForItsOwnShardsAloneWhenGivenSome() {
        // given a pipeline stage's view of shard 1 of 2
        final ModelView view = new ModelView("job", 2, 1, List.of(1));

        // when
        final boolean other = view.offer(shard(0, 3, 1f));
        final boolean own = view.offer(shard(1, 3, 2f));

        // then shard 0 is passed over, the view is complete without it and assembles zeros there
        assertThat(other).isFalse();
        assertThat(own).isTrue();
        assertThat(view.complete()).isTrue();
        assertThat(view.minVersion()).isEqualTo(3);
        assertThat(view.versions()).containsExactly(-1, 3);
        assertThat(view.assemble(4)).containsExactly(0f, 0f, 2f, 2f);
        assertThat(view.at(3).assemble(4)).containsExactly(0f, 0f, 2f, 2f);
    }

    private static ModelShard shard(final int shard, final long version, final float value) {
        return ModelShard.newBuilder()
                .setJob("job")
                .setShard(shard)
                .setShards(2)
                .setFirstParameter(shard * 2)
                .setVersion(version)
                .setMinClock(version)
                .setClocks(Map.of())
                .setValues(FloatPacking.pack(new float[] {value, value}))
                .setUpdatedAt(Instant.EPOCH)
                .build();
    }
}
