package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Tests the rule that cuts large models into more shards. */
class ShardSizingTest {

    @Test
    void shouldKeepRequestedShardsWhenEachFitsTheBudget() {
        // given: softmax on Fashion-MNIST, 7,850 parameters

        // when
        final int shards = ShardSizing.shards(7_850, 4);

        // then
        assertThat(shards).isEqualTo(4);
    }

    @Test
    void shouldAddShardsWhenParametersExceedTheBudget() {
        // given: 784-1024-512-10, 1,333,770 parameters = 5.1 MiB of float32

        // when
        final int shards = ShardSizing.shards(1_333_770, 4);

        // then: ceil(5,335,080 / 262,144) = 21, each shard <= 65,536 parameters
        assertThat(shards).isEqualTo(21);
        assertThat(ShardLayout.of(1_333_770, shards).length(0)).isLessThanOrEqualTo(65_536);
    }

    @Test
    void shouldNeedExactlyOneShardWhenParametersFillTheBudget() {
        // given / when / then
        assertThat(ShardSizing.minimumShards(65_536)).isEqualTo(1);
        assertThat(ShardSizing.minimumShards(65_537)).isEqualTo(2);
    }

    @Test
    void shouldCapShardsAtParameterCountWhenMoreAreRequested() {
        // given / when / then
        assertThat(ShardSizing.shards(3, 8)).isEqualTo(3);
    }
}
