package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Tests cutting a parameter vector into contiguous shards. */
class ShardLayoutTest {

    @Test
    void shouldCoverEveryIndexExactlyOnceWhenCutIntoShards() {
        for (int parameters = 1; parameters <= 40; parameters++) {
            for (int shards = 1; shards <= parameters; shards++) {
                // given
                final ShardLayout layout = ShardLayout.of(parameters, shards);
                final int[] hits = new int[parameters];

                // when
                int next = 0;
                for (int s = 0; s < shards; s++) {
                    assertThat(layout.first(s))
                            .as("first of shard %d of %s", s, layout)
                            .isEqualTo(next);
                    for (int i = layout.first(s); i < layout.first(s) + layout.length(s); i++) {
                        hits[i]++;
                    }
                    next += layout.length(s);
                }

                // then
                assertThat(next).isEqualTo(parameters);
                assertThat(hits).as("%s", layout).containsOnly(1);
            }
        }
    }

    @Test
    void shouldMakeFirstShardsLongerWhenNotDivisible() {
        // given
        final ShardLayout layout = ShardLayout.of(10, 4);

        // when / then
        assertThat(new int[] {layout.length(0), layout.length(1), layout.length(2), layout.length(3)})
                .containsExactly(3, 3, 2, 2);
        assertThat(new int[] {layout.first(0), layout.first(1), layout.first(2), layout.first(3)})
                .containsExactly(0, 3, 6, 8);
    }

    @Test
    void shouldRoundTripWhenSlicingAndPlacing() {
        // given
        final ShardLayout layout = ShardLayout.of(7850, 4);
        final float[] full = new float[7850];
        for (int i = 0; i < full.length; i++) {
            full[i] = i * 0.5f;
        }
        final float[] rebuilt = new float[7850];

        // when
        for (int s = 0; s < layout.shards(); s++) {
            layout.place(rebuilt, s, layout.slice(full, s));
        }

        // then
        assertThat(rebuilt).containsExactly(full);
        assertThat(layout.slice(full, 1)[0]).isEqualTo(full[layout.first(1)]);
    }

    @Test
    void shouldRejectLayoutWhenShardsOutOfRange() {
        // when / then
        assertThatThrownBy(() -> ShardLayout.of(3, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShardLayout.of(3, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShardLayout.of(3, 2).first(2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShardLayout.of(5, 2).place(new float[5], 0, new float[2]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldNeverLetAShardStraddleABoundaryWhenAligned() {
        // given the default cnn cut in two stages: segments of 210,112 / 210,112 / 61 / 1,357 values
        final ShardLayout layout = ShardLayout.aligned(421_642, 6, 210_112, 420_224, 420_285);

        // then every boundary is a shard's first value, and the shards tile the vector
        int next = 0;
        final Set<Integer> firsts = new HashSet<>();
        for (int shard = 0; shard < layout.shards(); shard++) {
            assertThat(layout.first(shard)).isEqualTo(next);
            assertThat(layout.length(shard)).isPositive();
            firsts.add(layout.first(shard));
            next += layout.length(shard);
        }
        assertThat(next).isEqualTo(421_642);
        assertThat(firsts).contains(210_112, 420_224, 420_285);
        assertThat(ShardLayout.aligned(100, 3)).isEqualTo(ShardLayout.of(100, 3));
        assertThatThrownBy(() -> ShardLayout.aligned(100, 2, 10, 20)).hasMessageContaining("at least 3 shards");
    }
}
