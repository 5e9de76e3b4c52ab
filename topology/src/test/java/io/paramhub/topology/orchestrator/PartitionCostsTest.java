package io.paramhub.topology.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.avro.ServerTelemetry;
import java.time.Instant;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

class PartitionCostsTest {

    @Test
    void shouldWeighAPartitionByItsShardsWhenTheyAreAlike() {
        // given one job, partition 0 holding shards 0 and 1, partition 1 shard 2, all rounding every 100 ms
        final PartitionCosts costs = new PartitionCosts(10);
        for (int round = 0; round < 10; round++) {
            costs.add(round("a", "job", 0, 0, 10.0), round * 100L);
            costs.add(round("a", "job", 1, 0, 10.0), round * 100L);
            costs.add(round("b", "job", 2, 1, 40.0), round * 100L);
        }

        // when
        final SortedMap<Integer, Double> weights = costs.weights(Map.of("a", 10.0, "b", 40.0));

        // then the slow instance's shard weighs one, like the others: its time is the instance's, not the shard's
        assertThat(weights.get(0)).isCloseTo(2.0, within(1e-9));
        assertThat(weights.get(1)).isCloseTo(1.0, within(1e-9));
        assertThat(costs.owners()).containsEntry(0, "a").containsEntry(1, "b");
        assertThat(costs.shardCount()).isEqualTo(3);
    }

    @Test
    void shouldWeighAShardByItsTimeAndItsJobsPace() {
        // given on one instance (10 ms typical): a shard of 25 ms on partition 0, and on partition 1 a shard of a
        // job that rounds every 200 ms instead of every 100
        final PartitionCosts costs = new PartitionCosts(10);
        for (int round = 0; round < 10; round++) {
            costs.add(round("a", "busy", 0, 0, 25.0), round * 100L);
            costs.add(round("a", "busy", 1, 2, 10.0), round * 100L);
            costs.add(round("a", "slow-job", 0, 1, 10.0), round * 200L);
        }

        // when
        final SortedMap<Integer, Double> weights = costs.weights(Map.of("a", 10.0));

        // then
        assertThat(weights.get(0)).isCloseTo(2.5, within(1e-9));
        assertThat(weights.get(1)).isCloseTo(0.5, within(1e-9));
        assertThat(weights.get(2)).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void shouldForgetASilentShardAndTheRoundsOfAMovedOne() {
        // given
        final PartitionCosts costs = new PartitionCosts(10);
        costs.add(round("a", "job", 0, 0, 40.0), 0);
        costs.add(round("a", "job", 1, 1, 10.0), 0);
        costs.add(round("a", "job", 1, 1, 10.0), 1_000);

        // when shard 0 moves to b, where it rounds in 10 ms, and shard 1 falls silent
        costs.add(round("b", "job", 0, 0, 10.0), 2_000);
        costs.forgetBefore(1_500);

        // then
        assertThat(costs.owners()).containsExactly(Map.entry(0, "b"));
        assertThat(costs.weights(Map.of("b", 10.0)).get(0)).isCloseTo(1.0, within(1e-9));
    }

    private static ServerTelemetry round(
            final String instance, final String job, final int shard, final int partition, final double ms) {
        return ServerTelemetry.newBuilder()
                .setInstance(instance)
                .setJob(job)
                .setShard(shard)
                .setPartition(partition)
                .setVersion(0)
                .setBusyMs(ms)
                .setRoundMs(ms)
                .setTimestamp(Instant.EPOCH)
                .build();
    }
}
